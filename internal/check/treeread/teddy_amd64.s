#include "textflag.h"

// func teddyAVX2(s []byte, masks *teddyMasks, from int) (at int, mask uint32, high uint32)
//
// Looks at the places i = from, from+32, ... while i+34 <= len(s), 32
// places at a time: place i+j is a candidate when the bytes s[i+j],
// s[i+j+1] and s[i+j+2] are, for one bucket, the bytes of its fingerprint.
// Each byte is split into its two nibbles, and each nibble looked up with
// VPSHUFB in a table of 16 bytes that holds, per bucket, one bit: whether a
// fingerprint byte at that position has that nibble. A byte matches the
// buckets whose bit both of its nibbles' lookups hold; a place, those its
// three bytes all match. It returns the first i with a candidate and the
// candidates' mask (bit j for place i+j), or the i it stopped at and a zero
// mask; high has a bit set when a byte it looked at (s[from:at+32], or
// s[from:at] when it found nothing) is 0x80 or above.
TEXT ·teddyAVX2(SB), NOSPLIT, $0-56
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), DX
	MOVQ masks+24(FP), R8
	MOVQ from+32(FP), DI
	SUBQ $34, DX // the last i to look at

	VMOVDQU 0(R8), Y8    // low nibbles, first byte
	VMOVDQU 32(R8), Y9   // high nibbles, first byte
	VMOVDQU 64(R8), Y10  // second byte
	VMOVDQU 96(R8), Y11
	VMOVDQU 128(R8), Y12 // third byte
	VMOVDQU 160(R8), Y13
	MOVQ $0x0f, AX
	VMOVQ AX, X14
	VPBROADCASTB X14, Y14 // 0x0f in every byte
	VPXOR Y15, Y15, Y15   // the bytes looked at, ORed
	VPXOR Y7, Y7, Y7      // zero

loop:
	CMPQ DI, DX
	JGT none
	VMOVDQU (SI)(DI*1), Y0
	VMOVDQU 1(SI)(DI*1), Y1
	VMOVDQU 2(SI)(DI*1), Y2
	VPOR Y0, Y15, Y15

	VPSRLW $4, Y0, Y3
	VPAND Y14, Y0, Y0
	VPAND Y14, Y3, Y3
	VPSHUFB Y0, Y8, Y0
	VPSHUFB Y3, Y9, Y3
	VPAND Y3, Y0, Y0

	VPSRLW $4, Y1, Y4
	VPAND Y14, Y1, Y1
	VPAND Y14, Y4, Y4
	VPSHUFB Y1, Y10, Y1
	VPSHUFB Y4, Y11, Y4
	VPAND Y4, Y1, Y1
	VPAND Y1, Y0, Y0

	VPSRLW $4, Y2, Y5
	VPAND Y14, Y2, Y2
	VPAND Y14, Y5, Y5
	VPSHUFB Y2, Y12, Y2
	VPSHUFB Y5, Y13, Y5
	VPAND Y5, Y2, Y2
	VPAND Y2, Y0, Y0

	VPCMPEQB Y7, Y0, Y0 // 0xff where no bucket matches
	VPMOVMSKB Y0, AX
	NOTL AX
	TESTL AX, AX
	JNZ found
	ADDQ $32, DI
	JMP loop

found:
	MOVQ DI, at+40(FP)
	MOVL AX, mask+48(FP)
	VPMOVMSKB Y15, AX
	MOVL AX, high+52(FP)
	VZEROUPPER
	RET

none:
	MOVQ DI, at+40(FP)
	MOVL $0, mask+48(FP)
	VPMOVMSKB Y15, AX
	MOVL AX, high+52(FP)
	VZEROUPPER
	RET
