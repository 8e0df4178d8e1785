package record

// A forger's toolkit, written from docs/verify.md and not from the store's code: it reads
// and writes log records and re-hashes the chain, as someone holding the file (or the
// database) and wanting to rewrite a game would.

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/bottlepost/bottlepost/store"
)

// rawRec is a log record's fields (docs/verify.md, "Record encoding").
type rawRec struct {
	Kind, Flags, Side byte
	Index, Ply        uint64
	Sec               int64
	Nano              uint64
	Text, Public      string
	Lines             [2]string // only those not flagged "same as the public line"
	Commitment        []byte    // 32 bytes, secret moves
	Sealed            []byte    // flagged sealed
}

func decodeRec(b []byte) (rawRec, error) {
	var r rawRec
	bad := errors.New("bad record")
	if len(b) < 4 || b[0] != 1 {
		return r, bad
	}
	r.Kind, r.Flags, r.Side = b[1], b[2], b[3]
	b = b[4:]
	uv := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			panic(bad)
		}
		b = b[n:]
		return v
	}
	str := func() string {
		n := uv()
		s := string(b[:n])
		b = b[n:]
		return s
	}
	defer func() { recover() }()
	r.Index, r.Ply = uv(), uv()
	sec, n := binary.Varint(b)
	b = b[n:]
	r.Sec, r.Nano = sec, uv()
	r.Text, r.Public = str(), str()
	for i := range 2 {
		if r.Flags&(4<<i) == 0 {
			r.Lines[i] = str()
		}
	}
	if r.Flags&1 != 0 {
		r.Commitment, b = b[:32], b[32:]
	}
	if r.Flags&2 != 0 {
		r.Sealed = []byte(str())
	}
	return r, nil
}

func (r rawRec) encode() []byte {
	b := []byte{1, r.Kind, r.Flags, r.Side}
	b = binary.AppendUvarint(b, r.Index)
	b = binary.AppendUvarint(b, r.Ply)
	b = binary.AppendVarint(b, r.Sec)
	b = binary.AppendUvarint(b, r.Nano)
	str := func(s string) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...) }
	str(r.Text)
	str(r.Public)
	for i := range 2 {
		if r.Flags&(4<<i) == 0 {
			str(r.Lines[i])
		}
	}
	b = append(b, r.Commitment...)
	if r.Flags&2 != 0 {
		str(string(r.Sealed))
	}
	return b
}

// lengthPrefixed is each field as a 4-byte big-endian length and its bytes.
func lengthPrefixed(fields ...[]byte) []byte {
	var out []byte
	for _, f := range fields {
		out = binary.BigEndian.AppendUint32(out, uint32(len(f)))
		out = append(out, f...)
	}
	return out
}

// rehash recomputes every record's chain hash and the game's head and count, as a forger
// who rewrote records would.
func rehash(x *store.Export) {
	head := sha256.Sum256(lengthPrefixed([]byte("bottlepost/chain/v1"), binary.BigEndian.AppendUint64(nil, x.Game.ID)))
	for i := range x.Records {
		head = sha256.Sum256(append(head[:], x.Records[i].Record...))
		x.Records[i].Hash = head
	}
	x.Game.Head = head
	x.Game.Records = uint32(len(x.Records))
}

// exportOf reads the embedded export of a file.
func exportOf(t *testing.T, file []byte) *store.Export {
	t.Helper()
	x, _, err := readExport(file)
	if err != nil {
		t.Fatal(err)
	}
	// A deep copy, so that a forgery leaves the original alone.
	b, _ := json.Marshal(x)
	var c store.Export
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

// forge writes x as bottlepost would: a wholly consistent file.
func forge(t *testing.T, x *store.Export) []byte {
	t.Helper()
	b, err := render(x, formMarked)
	if err != nil {
		t.Fatalf("forging: %v", err)
	}
	return b
}

func readTestdata(name string) ([]byte, error) { return os.ReadFile(filepath.Join("testdata", name)) }
