package record

import (
	"bytes"
	"testing"
)

// BenchmarkVerify checks the worked example's test vector (a 14-record Seachess game with
// two secret moves) against its final receipt: what bottlepost verify does for a player.
func BenchmarkVerify(b *testing.B) {
	file, err := readTestdata(exampleFile)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(file)))
	for b.Loop() {
		if _, err := Verify(bytes.NewReader(file)); err != nil {
			b.Fatal(err)
		}
	}
}
