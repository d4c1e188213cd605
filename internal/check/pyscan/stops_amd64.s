#include "textflag.h"

// func stopBitsAVX2(src []byte, quotes, ends []uint64)
//
// stopBitsGo with AVX2: each byte is compared with the seven stop bytes, 32
// at a time. The constants are moved into vector registers with VEX
// instructions only: a legacy SSE instruction, met while the upper halves
// of the registers are dirty, made the whole function ten times slower.
TEXT ·stopBitsAVX2(SB), NOSPLIT, $0-72
	MOVQ src_base+0(FP), SI
	MOVQ quotes_base+24(FP), DI
	MOVQ quotes_len+32(FP), CX
	MOVQ ends_base+48(FP), R8

	MOVQ $0x23, AX // #
	VMOVQ AX, X8
	VPBROADCASTB X8, Y8
	MOVQ $0x22, AX // "
	VMOVQ AX, X9
	VPBROADCASTB X9, Y9
	MOVQ $0x27, AX // '
	VMOVQ AX, X10
	VPBROADCASTB X10, Y10
	MOVQ $0x0a, AX // \n
	VMOVQ AX, X11
	VPBROADCASTB X11, Y11
	MOVQ $0x0d, AX // \r
	VMOVQ AX, X12
	VPBROADCASTB X12, Y12
	MOVQ $0x5c, AX // backslash
	VMOVQ AX, X13
	VPBROADCASTB X13, Y13
	MOVQ $0x7b, AX // {
	VMOVQ AX, X14
	VPBROADCASTB X14, Y14

loop:
	TESTQ CX, CX
	JZ done
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1

	// Quotes and #, in Y2 (the first 32 bytes) and Y4.
	VPCMPEQB Y8, Y0, Y2
	VPCMPEQB Y9, Y0, Y3
	VPOR Y3, Y2, Y2
	VPCMPEQB Y10, Y0, Y3
	VPOR Y3, Y2, Y2
	VPCMPEQB Y8, Y1, Y4
	VPCMPEQB Y9, Y1, Y5
	VPOR Y5, Y4, Y4
	VPCMPEQB Y10, Y1, Y5
	VPOR Y5, Y4, Y4

	// Line ends, backslashes and {, in Y6 and Y7.
	VPCMPEQB Y11, Y0, Y6
	VPCMPEQB Y12, Y0, Y3
	VPOR Y3, Y6, Y6
	VPCMPEQB Y13, Y0, Y3
	VPOR Y3, Y6, Y6
	VPCMPEQB Y14, Y0, Y3
	VPOR Y3, Y6, Y6
	VPCMPEQB Y11, Y1, Y7
	VPCMPEQB Y12, Y1, Y5
	VPOR Y5, Y7, Y7
	VPCMPEQB Y13, Y1, Y5
	VPOR Y5, Y7, Y7
	VPCMPEQB Y14, Y1, Y5
	VPOR Y5, Y7, Y7

	VPMOVMSKB Y2, AX
	VPMOVMSKB Y4, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, (DI)
	VPMOVMSKB Y6, AX
	VPMOVMSKB Y7, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, (R8)

	ADDQ $64, SI
	ADDQ $8, DI
	ADDQ $8, R8
	DECQ CX
	JMP loop

done:
	VZEROUPPER
	RET
