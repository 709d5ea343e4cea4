#include "textflag.h"

// func scanSSE(raw []byte, e, c, r byte, span *[128]uint32) (k int, comp, rep uint64, ok bool)
//
// fields.scan's loop with SSE2, 16 bytes a round (the 16-byte blocks
// covering raw must be readable): bytes equal to e end an element (its
// span goes to span[k]); bytes equal to c or r mark the element they are
// in (comp, rep: bit min(k, 63)); any other byte below 0x20 (PMINUB with
// 0x1f leaves it unchanged) or 0x7f, or a 128th separator, stops the scan
// with ok false.
TEXT ·scanSSE(SB), NOSPLIT, $0-65
	MOVQ raw_base+0(FP), SI
	MOVQ raw_len+8(FP), DX
	MOVBLZX e+24(FP), AX
	IMULL $0x01010101, AX
	MOVQ AX, X1
	PSHUFL $0, X1, X1
	MOVBLZX c+25(FP), AX
	IMULL $0x01010101, AX
	MOVQ AX, X2
	PSHUFL $0, X2, X2
	MOVBLZX r+26(FP), AX
	IMULL $0x01010101, AX
	MOVQ AX, X3
	PSHUFL $0, X3, X3
	MOVL $0x1f1f1f1f, AX
	MOVQ AX, X4
	PSHUFL $0, X4, X4
	MOVL $0x7f7f7f7f, AX
	MOVQ AX, X5
	PSHUFL $0, X5, X5
	MOVQ span+32(FP), DI
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
	ORL AX, R8

bits:
	TESTL R8, R8
	JZ next
	BSFL R8, CX
	LEAQ (BX)(CX*1), R9 // offset of the byte
	BTL CX, AX
	JCC special
	CMPQ R10, $127
	JGE fail
	MOVQ R9, CX
	SHLQ $16, CX
	ORQ R11, CX
	MOVL CX, (DI)(R10*4)
	INCQ R10
	LEAQ 1(R9), R11
	JMP clear

special:
	MOVBLZX (SI)(R9*1), R9
	MOVQ R10, CX
	CMPQ CX, $63
	JLE marked
	MOVQ $63, CX

marked:
	CMPB R9, c+25(FP)
	JNE notcomp
	BTSQ CX, R12
	JMP clear

notcomp:
	CMPB R9, r+26(FP)
	JNE fail
	BTSQ CX, R13

clear:
	LEAL -1(R8), R9
	ANDL R9, R8
	JMP bits

next:
	ADDQ $16, BX
	JMP block

done:
	MOVQ DX, CX
	SHLQ $16, CX
	ORQ R11, CX
	MOVL CX, (DI)(R10*4)
	MOVQ R10, k+40(FP)
	MOVQ R12, comp+48(FP)
	MOVQ R13, rep+56(FP)
	MOVB $1, ok+64(FP)
	RET

fail:
	MOVB $0, ok+64(FP)
	RET
