#include "textflag.h"

// qcheck field offsets (TestAsmLayout holds them to the Go struct).
#define Q_OP 0
#define Q_REQ 1
#define Q_PSHIFT 2
#define Q_AOP 3
#define Q_MIN 4
#define Q_SPAN 8
#define Q_LASTREQ 12
#define Q_PERFECT 16
#define Q_MUL 24
#define Q_CODES 32
#define Q_COMPS 40
#define Q_NCOMPS 48
#define Q_MAXLEFT 52
#define Q_SIZE_SHIFT 6

// fields offsets (TestAsmLayout).
#define F_RAW 8
#define F_N 40
#define F_COMP 48
#define F_REP 56
#define F_SPAN 64

// qseg offsets, and qsyntax's (TestAsmLayout).
#define S_QS 0
#define S_NQS 8
#define S_LASTREQ 16
#define S_REQMASK 24
#define S_SYNTAX 32
#define S_NSYNTAX 40
#define S_COMPMASK 48
#define S_DATEQUAL 56
#define S_DATEVAL 60
#define S_MOREDATES 64
#define SY_MASK 0
#define SY_FIRST 8
#define SY_KIND 16
#define SY_SIZE 24

// checkSegment's answers (segmentBad, segmentOK, segmentUnsure, segmentDates).
#define RES_BAD 0
#define RES_OK 1
#define RES_UNSURE 2
#define RES_DATES 3

// swar holds 0x01 and 0x80 in every byte of a word.
DATA swar<>+0(SB)/8, $0x0101010101010101
DATA swar<>+8(SB)/8, $0x8080808080808080
GLOBL swar<>(SB), RODATA|NOPTR, $16

// aop values (fastcheck.go).
#define AOP_TEXT 1
#define AOP_CODE 2

// quick values (fastcheck.go).
#define QUICK_TEXT 1
#define QUICK_DECIMAL 2
#define QUICK_INTEGER 3
#define QUICK_COMPOSITE 6

// func checkSegment(f *fields, q *qseg, csep byte) uint8
//
// elementsOK's checks of a scanned segment f against q, its guide
// segment's checks: the element count, then each value (one loop over the
// values, each element's or each of a composite's components, checked by
// type, length and code with one probe), then the required elements and
// the syntax rules against the positions present. RES_BAD: checkElements
// will report something; RES_UNSURE: a value this loop does not check (a
// date, a code without a collision-free table, more than 62 elements...),
// which valuesOK decides.
//
// Registers: SI f.raw's bytes, DX len(f.raw) (f.raw has 16 bytes or more
// after it: a value of 1 to 7 bytes reads as a word), DI span, R8 the
// element's check, R9 its position i (1..n), R11 present; per element R12
// its end (hi), R10 the check of the value at hand (a component's or the
// element's own), R15 the components' checks left (-1 for a simple
// element), BX and R13 the value's start and end; AX, CX, R14 scratch. The
// frame holds n and, in a composite, cseps.
TEXT ·checkSegment(SB), NOSPLIT, $16-25
	MOVQ f+0(FP), AX
	MOVQ q+8(FP), CX
	MOVQ F_N(AX), R9
	CMPQ R9, S_NQS(CX)
	JGT bad // more elements than positions (or no quick checks: nqs -1)
	CMPQ S_LASTREQ(CX), R9
	JGT bad // a required element after the last one sent
	CMPQ R9, $62
	JGT fail // positions past 62 share bit 63 of present: valuesOK reads them
	MOVQ R9, n-8(SP)
	// A repetition separator in an element, or a component separator
	// in one that is not a composite: valuesOK decides (bit 0 is the
	// id's, which is not checked here).
	MOVQ S_COMPMASK(CX), R10
	NOTQ R10
	ANDQ F_COMP(AX), R10
	ORQ F_REP(AX), R10
	SHRQ $1, R10
	JNE fail
	MOVQ F_RAW(AX), SI
	MOVQ F_RAW+8(AX), DX // f.raw has 16 readable bytes after it (fields.padded)
	LEAQ F_SPAN(AX), DI
	MOVQ S_QS(CX), R8
	XORQ R11, R11
	MOVQ $1, R9
	JMP element

next:
	INCQ R9
	ADDQ $(1<<Q_SIZE_SHIFT), R8

element:
	CMPQ R9, n-8(SP)
	JGT done
	MOVL (DI)(R9*4), AX
	MOVWLZX AX, BX // lo: the first value's start
	MOVL AX, R12
	SHRL $16, R12  // hi
	CMPL BX, R12
	JEQ next       // empty
	JHI fail
	CMPQ R12, DX
	JHI fail
	BTSQ R9, R11
	// The commonest elements first, each in a few instructions: text
	// checked by its length, and text with codes (aop, see qcheckOf).
	MOVBLZX Q_AOP(R8), AX
	CMPB AX, $AOP_TEXT
	JNE notext
	MOVL R12, CX
	SUBL BX, CX
	SUBL Q_MIN(R8), CX
	CMPL CX, Q_SPAN(R8)
	JLS next
	JMP fail

notext:
	CMPB AX, $AOP_CODE
	JNE other
	// A code of 1 to 7 bytes: the value read as a word, masked to its
	// length, with the length in the top byte (pack), must be in its
	// slot of the collision-free table.
	MOVL R12, CX
	SUBL BX, CX
	MOVL CX, AX
	SUBL Q_MIN(R8), AX
	CMPL AX, Q_SPAN(R8)
	JHI fail
	CMPL CX, $7
	JHI fail
	MOVQ (SI)(BX*1), R14
	LEAQ ·lowBytes(SB), AX
	ANDQ (AX)(CX*8), R14
	SHLQ $56, CX
	ORQ CX, R14
	MOVQ R14, AX
	IMULQ Q_MUL(R8), AX
	MOVBLZX Q_PSHIFT(R8), CX
	SHRQ CX, AX
	MOVQ Q_PERFECT(R8), CX
	CMPQ (CX)(AX*8), R14
	JEQ next
	JMP fail

other:
	CMPB Q_OP(R8), $QUICK_COMPOSITE
	JEQ composite
	// Another simple element: one value, checked by its own check;
	// R15 < 0 says so to checked.
	MOVQ R8, R10
	MOVL R12, R13
	MOVQ $-1, R15
	JMP check

composite:
	// Its components, split at component separators (csep in every byte
	// of cseps, for find).
	MOVQ Q_COMPS(R8), R10
	MOVLQSX Q_NCOMPS(R8), R15
	MOVBLZX csep+16(FP), CX
	IMULQ swar<>+0(SB), CX
	MOVQ CX, cseps-16(SP)

value:
	// A component ends at the next component separator, or with the
	// element. Eight bytes at a time (readable: f.raw has 16 after it):
	// the separators are the zero bytes of the word XOR cseps, the first
	// of them exactly the lowest byte (x - ones) &^ x has its top bit set.
	MOVL R12, R13
	MOVL BX, AX

find:
	CMPL AX, R12
	JAE take
	MOVQ (SI)(AX*1), CX
	XORQ cseps-16(SP), CX
	MOVQ CX, R14
	SUBQ swar<>+0(SB), R14
	NOTQ CX
	ANDQ R14, CX
	ANDQ swar<>+8(SB), CX
	JNE found
	ADDL $8, AX
	JMP find

found:
	BSFQ CX, CX
	SHRL $3, CX
	ADDL CX, AX
	CMPL AX, R12
	JAE take // past the element's end
	MOVL AX, R13

take:
	TESTQ R15, R15
	JEQ fail // more components than the composite has
	DECQ R15
	CMPL BX, R13
	JNE check
	CMPB Q_REQ(R10), $0
	JNE fail // a required component left empty
	JMP checked

check:
	MOVBLZX Q_OP(R10), AX
	MOVL R13, CX
	SUBL BX, CX // its length
	CMPB AX, $QUICK_TEXT
	JEQ length
	CMPB AX, $QUICK_DECIMAL
	JEQ number
	CMPB AX, $QUICK_INTEGER
	JNE fail

number:
	// An optional minus, then digits and at most one point (none in an
	// integer); the length counts the digits.
	MOVL BX, AX
	XORL R14, R14 // points
	CMPB (SI)(AX*1), $0x2d
	JNE digits
	INCL AX

digits:
	CMPL AX, R13
	JEQ counted
	MOVBLZX (SI)(AX*1), CX
	INCL AX
	SUBL $0x30, CX
	CMPL CX, $9
	JLS digits
	CMPL CX, $0xfffffffe // '.' - '0'
	JNE fail
	INCL R14
	JMP digits

counted:
	CMPL R14, $1
	JHI fail
	JNE nopoint
	CMPB Q_OP(R10), $QUICK_INTEGER
	JEQ fail

nopoint:
	MOVL R13, CX
	SUBL BX, CX
	SUBL R14, CX
	CMPB (SI)(BX*1), $0x2d
	JNE signless
	DECL CX

signless:
	TESTL CX, CX
	JEQ fail

length:
	SUBL Q_MIN(R10), CX
	CMPL CX, Q_SPAN(R10)
	JHI fail
	CMPQ Q_CODES(R10), $0
	JEQ checked
	// A code of 1 to 7 bytes: the value read as a word, masked to its
	// length, with the length in the top byte (pack), must be in its
	// slot of the collision-free table.
	MOVQ Q_PERFECT(R10), AX
	TESTQ AX, AX
	JEQ fail
	MOVL R13, CX
	SUBL BX, CX
	CMPL CX, $7
	JHI fail
	MOVQ (SI)(BX*1), R14
	MOVL CX, BX
	SHLL $3, CX
	NEGL CX // shifts count mod 64: 64 - 8 * length
	SHLQ CX, R14
	SHRQ CX, R14
	SHLQ $56, BX
	ORQ BX, R14
	MOVQ R14, BX
	IMULQ Q_MUL(R10), BX
	MOVBLZX Q_PSHIFT(R10), CX
	SHRQ CX, BX
	CMPQ (AX)(BX*8), R14
	JNE fail

checked:
	TESTQ R15, R15
	JS next // a simple element's value
	ADDQ $(1<<Q_SIZE_SHIFT), R10
	CMPL R13, R12
	JEQ last
	LEAL 1(R13), BX
	JMP value

last:
	// No required component after the last one sent.
	MOVLQSX Q_MAXLEFT(R8), AX
	CMPQ R15, AX
	JGT fail
	JMP next

done:
	// Every required element present, and no syntax rule broken (see
	// syntaxRule.broken; a P rule is a C rule whose first is its mask).
	MOVQ q+8(FP), CX
	MOVQ R11, AX
	NOTQ AX
	TESTQ S_REQMASK(CX), AX
	JNE bad
	MOVQ S_NSYNTAX(CX), R9
	TESTQ R9, R9
	JEQ dates
	MOVQ S_SYNTAX(CX), R8

rule:
	MOVQ SY_MASK(R8), AX
	MOVQ R11, BX
	ANDQ AX, BX // have
	MOVBLZX SY_KIND(R8), CX
	CMPB CX, $0x43 // C (and P)
	JEQ ruleC
	CMPB CX, $0x52 // R
	JEQ ruleR
	CMPB CX, $0x45 // E
	JEQ ruleE
	CMPB CX, $0x4c // L
	JNE nextrule
	CMPQ BX, SY_FIRST(R8)
	JEQ bad
	JMP nextrule

ruleC:
	TESTQ BX, SY_FIRST(R8)
	JEQ nextrule
	CMPQ BX, AX
	JNE bad
	JMP nextrule

ruleR:
	TESTQ BX, BX
	JEQ bad
	JMP nextrule

ruleE:
	LEAQ -1(BX), CX
	TESTQ CX, BX
	JNE bad

nextrule:
	ADDQ $SY_SIZE, R8
	DECQ R9
	JNZ rule

dates:
	// The segment's date pair (a 1250 format, then its 1251 value), when
	// it has one: a D8 value read as one word (see date8); any other
	// format, a 29 February or a second pair is left to datesOK.
	MOVQ q+8(FP), CX
	MOVLQSX S_DATEQUAL(CX), AX
	TESTQ AX, AX
	JEQ ok
	CMPB S_MOREDATES(CX), $0
	JNE datesgo
	MOVLQSX S_DATEVAL(CX), BX
	CMPQ BX, n-8(SP)
	JGT ok // no value: nothing to check
	MOVL (DI)(BX*4), R12
	MOVWLZX R12, BX
	SHRL $16, R12
	CMPL BX, R12
	JEQ ok // an empty value
	MOVL (DI)(AX*4), R13
	MOVWLZX R13, AX
	SHRL $16, R13
	SUBL AX, R13 // the format's length
	CMPL R13, $2
	JLT ok // not a format datePairOK reads
	CMPL R13, $3
	JGT ok
	JEQ datesgo // RD8 and the like
	CMPW (SI)(AX*1), $0x3844 // "D8"
	JNE datesgo
	SUBL BX, R12
	CMPL R12, $8
	JNE bad
	// Eight digits: each byte minus '0' below 10 (date8's test).
	MOVQ (SI)(BX*1), AX
	MOVQ $0x3030303030303030, CX
	SUBQ CX, AX
	MOVQ $0x7676767676767676, CX
	ADDQ AX, CX
	ORQ AX, CX
	MOVQ $0x8080808080808080, R14
	TESTQ R14, CX
	JNE bad
	// The month in R13 and the day in R12, each from two digits.
	MOVQ AX, CX
	SHRQ $32, CX
	MOVBLZX CX, R13
	LEAL (R13)(R13*4), R13
	ADDL R13, R13
	MOVQ AX, CX
	SHRQ $40, CX
	MOVBLZX CX, CX
	ADDL CX, R13
	MOVQ AX, CX
	SHRQ $48, CX
	MOVBLZX CX, R12
	LEAL (R12)(R12*4), R12
	ADDL R12, R12
	SHRQ $56, AX
	ADDL AX, R12
	LEAL -1(R13), CX
	CMPL CX, $11
	JHI bad // not a month
	LEAL -1(R12), CX
	CMPL CX, $30
	JHI bad // not a day
	CMPL R12, $28
	JLS ok
	CMPL R13, $2
	JNE notfeb
	CMPL R12, $29
	JEQ datesgo // the year decides
	JMP bad

notfeb:
	CMPL R12, $31
	JNE ok
	MOVL $0x15AA, CX // the months of 31 days: 1, 3, 5, 7, 8, 10, 12
	BTL R13, CX
	JCC bad

ok:
	MOVB $RES_OK, ret+24(FP)
	RET

datesgo:
	MOVB $RES_DATES, ret+24(FP)
	RET

bad:
	MOVB $RES_BAD, ret+24(FP)
	RET

fail:
	MOVB $RES_UNSURE, ret+24(FP)
	RET
