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

	"github.com/bottlepost/bottlepost/rules"
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

// restate makes a rewritten record agree with the rules again, as a forger who knows them
// would: every move record's public line and lines become the rules' report of it on
// replay (a sealed line stays sealed: only the export shows it), and the end record moves
// to the ply and side after the last move. The chain is left for rehash.
func restate(t *testing.T, x *store.Export) {
	t.Helper()
	start, err := parseStart(x.Records[0].Text)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, r := range x.Records {
		if r.Kind == store.KindMove {
			texts = append(texts, r.Text)
		}
	}
	final, plies, err := Replay(variantOf(t, x.Game.Variant), start.options(), texts)
	if err != nil || (len(plies) > 0 && plies[len(plies)-1].Err != nil) {
		t.Fatalf("restate: the moves do not replay: %v %+v", err, plies)
	}
	ply := 0
	for i := range x.Records {
		rec := &x.Records[i]
		raw, err := decodeRec(rec.Record)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case rec.Kind == store.KindMove:
			rep := plies[ply].Report
			ply++
			rec.Public = rep.Record[rules.ViewPublic]
			rec.Lines = [2]string{rep.Record[rules.ViewWhite], rep.Record[rules.ViewBlack]}
			raw.Public = rec.Public
			for side, line := range rec.Lines {
				same := byte(4 << side)
				raw.Flags &^= same
				raw.Lines[side] = ""
				switch {
				case line == rec.Public:
					raw.Flags |= same
				case raw.Flags&2 == 0: // in the clear
					raw.Lines[side] = line
				}
			}
		case i == len(x.Records)-1:
			raw.Ply, raw.Side = uint64(len(plies)), byte(final.ToMove())
			rec.Ply, rec.Side = uint32(raw.Ply), store.Side(raw.Side)
		}
		rec.Record = raw.encode()
	}
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
