#include "textflag.h"

// func indexPairBlocks(s []byte, a, b byte, d, blocks int) int
//
// X0 holds a in every byte and X1 b; a 16-byte block of s compared with
// X0, ANDed with the block d bytes further compared with X1, has a byte
// set where both match. Four blocks go per turn of the main loop, ORed
// into one test, so that it seldom branches.
TEXT ·indexPairBlocks(SB), NOSPLIT, $0-56
	MOVQ s_base+0(FP), SI
	MOVQ d+32(FP), DX
	LEAQ (SI)(DX*1), R9 // s[d:]
	MOVQ blocks+40(FP), CX

	MOVBLZX a+24(FP), AX
	MOVQ AX, X0
	PUNPCKLBW X0, X0
	PUNPCKLBW X0, X0
	PSHUFL $0, X0, X0
	MOVBLZX b+25(FP), AX
	MOVQ AX, X1
	PUNPCKLBW X1, X1
	PUNPCKLBW X1, X1
	PSHUFL $0, X1, X1

	XORQ DI, DI

loop64:
	LEAQ 64(DI), R8
	CMPQ R8, CX
	JA loop16
	MOVOU (SI)(DI*1), X2
	MOVOU (R9)(DI*1), X3
	MOVOU 16(SI)(DI*1), X4
	MOVOU 16(R9)(DI*1), X5
	MOVOU 32(SI)(DI*1), X6
	MOVOU 32(R9)(DI*1), X7
	MOVOU 48(SI)(DI*1), X8
	MOVOU 48(R9)(DI*1), X9
	PCMPEQB X0, X2
	PCMPEQB X1, X3
	PCMPEQB X0, X4
	PCMPEQB X1, X5
	PCMPEQB X0, X6
	PCMPEQB X1, X7
	PCMPEQB X0, X8
	PCMPEQB X1, X9
	PAND X3, X2
	PAND X5, X4
	PAND X7, X6
	PAND X9, X8
	MOVO X2, X10
	POR X4, X10
	POR X6, X10
	POR X8, X10
	PMOVMSKB X10, AX
	TESTL AX, AX
	JNZ found64
	MOVQ R8, DI
	JMP loop64

found64:
	PMOVMSKB X2, AX
	PMOVMSKB X4, BX
	PMOVMSKB X6, R10
	PMOVMSKB X8, R11
	SHLQ $16, BX
	SHLQ $32, R10
	SHLQ $48, R11
	ORQ BX, AX
	ORQ R10, AX
	ORQ R11, AX
	BSFQ AX, AX
	ADDQ DI, AX
	MOVQ AX, ret+48(FP)
	RET

loop16:
	CMPQ DI, CX
	JAE none
	MOVOU (SI)(DI*1), X2
	MOVOU (R9)(DI*1), X3
	PCMPEQB X0, X2
	PCMPEQB X1, X3
	PAND X3, X2
	PMOVMSKB X2, AX
	TESTL AX, AX
	JNZ found16
	ADDQ $16, DI
	JMP loop16

found16:
	BSFL AX, AX
	ADDQ DI, AX
	MOVQ AX, ret+48(FP)
	RET

none:
	MOVQ $-1, ret+48(FP)
	RET
