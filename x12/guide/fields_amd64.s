#include "textflag.h"

// fields offsets (TestAsmLayout).
#define F_FAST 32
#define F_N 40
#define F_COMP 48
#define F_REP 56
#define F_SPAN 64
#define F_VEC 928

// func scanSSE(raw []byte, f *fields) bool
//
// fields.scan's loop with SSE2, 16 bytes a round (the 16-byte blocks
// covering raw must be readable): bytes equal to e end an element (its
// span goes to span[k]); bytes equal to c or r mark the element they are
// in (comp, rep: bit min(k, 63)); any other byte below 0x20 (PMINUB with
// 0x1f leaves it unchanged) or 0x7f, or a 128th separator, stops the scan
// with ok false, as does a raw of 64 KiB or more, or an id padded with
// a blank (x12.Segment trims it). vec holds e, c, r, 0x1f and 0x7f, 16 times each
// (fields.setVec). The separator count is checked once a block, so span
// must have 16 entries past the 128th. The answer goes to f too: f.fast,
// f.n (-1 when it fails), f.compEl and f.repEl.
TEXT ·scanSSE(SB), NOSPLIT, $0-33
	MOVQ raw_base+0(FP), SI
	MOVQ raw_len+8(FP), DX
	CMPQ DX, $0xffff
	JHI fail // spans hold 16-bit offsets
	MOVQ f+24(FP), AX
	LEAQ F_SPAN(AX), DI
	LEAQ F_VEC(AX), AX
	MOVOU 0(AX), X1
	MOVOU 16(AX), X2
	MOVOU 32(AX), X3
	MOVOU 48(AX), X4
	MOVOU 64(AX), X5
	MOVBLZX 16(AX), R14 // c
	MOVBLZX 32(AX), R15 // r
	XORQ R10, R10 // k: elements ended so far
	XORQ R11, R11 // start of the current element
	XORQ R12, R12 // comp
	XORQ R13, R13 // rep
	XORQ BX, BX   // offset of the block

block:
	CMPQ BX, DX
	JGE done
	MOVOU (SI)(BX*1), X0
	MOVO X0, X6
	PCMPEQB X1, X6
	PMOVMSKB X6, AX // separators
	MOVO X0, X6
	PCMPEQB X2, X6
	MOVO X0, X7
	PCMPEQB X3, X7
	POR X7, X6
	MOVO X0, X7
	PCMPEQB X5, X7
	POR X7, X6
	MOVO X0, X7
	PMINUB X4, X7
	PCMPEQB X0, X7
	POR X7, X6
	PMOVMSKB X6, R8 // component, repetition, control characters, DEL
	MOVQ DX, R9
	SUBQ BX, R9
	CMPQ R9, $16
	JGE whole
	MOVQ R9, CX // the last block: drop the bytes past raw
	MOVL $1, R9
	SHLL CX, R9
	DECL R9
	ANDL R9, AX
	ANDL R9, R8

whole:
	MOVL AX, R9
	NOTL R9
	ANDL R9, R8 // a separator is a separator, whatever else it is
	JNZ mixed
	TESTL AX, AX
	JZ next

seps:
	// Separators only (nearly every block): each ends an element.
	BSFL AX, CX
	LEAQ (BX)(CX*1), R9 // offset of the separator
	MOVW R11, (DI)(R10*4) // the element's span: start,
	MOVW R9, 2(DI)(R10*4) // end
	INCQ R10
	LEAQ 1(R9), R11
	LEAL -1(AX), R9
	ANDL R9, AX
	JNZ seps
	JMP next

mixed:
	ORL AX, R8

bits:
	// R8 has a bit set: the next separator, or special byte.
	BSFL R8, CX
	BTL CX, AX
	JCC special
	LEAQ (BX)(CX*1), R9 // offset of the separator
	MOVW R11, (DI)(R10*4) // the element's span: start,
	MOVW R9, 2(DI)(R10*4) // end
	INCQ R10
	LEAQ 1(R9), R11

clear:
	LEAL -1(R8), R9
	ANDL R9, R8
	JNZ bits
	JMP next

special:
	LEAQ (BX)(CX*1), R9
	MOVBLZX (SI)(R9*1), R9
	MOVQ R10, CX
	CMPQ CX, $63
	JLE marked
	MOVQ $63, CX

marked:
	CMPB R9, R14
	JNE notcomp
	BTSQ CX, R12
	JMP clear

notcomp:
	CMPB R9, R15
	JNE fail
	BTSQ CX, R13
	JMP clear

next:
	CMPQ R10, $127 // a 128th separator
	JGT fail
	ADDQ $16, BX
	JMP block

done:
	MOVW R11, (DI)(R10*4)
	MOVW DX, 2(DI)(R10*4)
	MOVWLZX 2(DI), AX // the id's end
	TESTL AX, AX
	JEQ idok
	CMPB -1(SI)(AX*1), $0x20
	JEQ fail

idok:
	MOVQ f+24(FP), AX
	MOVQ R10, F_N(AX)
	MOVQ R12, F_COMP(AX)
	MOVQ R13, F_REP(AX)
	MOVB $1, F_FAST(AX)
	MOVB $1, ret+32(FP)
	RET

fail:
	MOVQ f+24(FP), AX
	MOVQ $-1, F_N(AX)
	MOVB $0, F_FAST(AX)
	MOVB $0, ret+32(FP)
	RET
