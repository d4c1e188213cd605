//go:build !amd64

package treeread

// haveTeddy is false where teddyAVX2 has no assembly: Matcher looks for
// each word's rarest byte with bytes.IndexByte instead.
var haveTeddy = false

func teddyAVX2(s []byte, masks *teddyMasks, from int) (at int, mask uint32, high uint32) {
	return teddyGo(s, masks, from)
}
