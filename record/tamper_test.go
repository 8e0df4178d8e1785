package record

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// tamperBase is the test vector of docs/verify.md's worked example, a finished Seachess game
// with two secret moves (Black resigned), and a receipt after each of its records: every head
// a player of the game could have been sent.
func tamperBase(t *testing.T) (file []byte, receipts []store.Receipt) {
	t.Helper()
	file, err := readTestdata(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range exportOf(t, file).Records {
		receipts = append(receipts, store.Receipt{Records: uint32(i + 1), Head: r.Hash})
	}
	if _, err := Verify(bytes.NewReader(file), receipts...); err != nil {
		t.Fatalf("the untouched file fails: %v", err)
	}
	return file, receipts
}

// mustRefuse verifies file and wants an error saying want.
func mustRefuse(t *testing.T, file []byte, want string, receipts ...store.Receipt) {
	t.Helper()
	_, err := Verify(bytes.NewReader(file), receipts...)
	if err == nil {
		t.Fatalf("the tampered file verified; want %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("refused with\n  %v\nwant it to say\n  %s", err, want)
	}
}

func replaceOnce(t *testing.T, file []byte, old, new string) []byte {
	t.Helper()
	if !bytes.Contains(file, []byte(old)) {
		t.Fatalf("%q is not in the file:\n%s", old, file)
	}
	return bytes.Replace(file, []byte(old), []byte(new), 1)
}

func TestVerifyRefusesFlippedResultTag(t *testing.T) {
	file, _ := tamperBase(t)
	mustRefuse(t, replaceOnce(t, file, `[Result "1-0"]`, `[Result "0-1"]`), `the PGN tag Result is "0-1", but the record gives "1-0"`)
	// The result at the end of the move text too.
	mustRefuse(t, replaceOnce(t, file, "Bd11-d10 1-0\n", "Bd11-d10 0-1\n"), `the PGN's move text ends "0-1", but the record gives "1-0"`)
}

func TestVerifyRefusesChangedPlayerTag(t *testing.T) {
	file, _ := tamperBase(t)
	t.Run("White", func(t *testing.T) {
		mustRefuse(t, replaceOnce(t, file, `[White "alice"]`, `[White "mallory"]`), `the PGN tag White is "mallory", but the record gives "alice"`)
	})
	t.Run("Black", func(t *testing.T) {
		mustRefuse(t, replaceOnce(t, file, `[Black "bob"]`, `[Black "alice"]`), `the PGN tag Black is "alice", but the record gives "bob"`)
	})
}

func TestVerifyRefusesChangedComment(t *testing.T) {
	file, _ := tamperBase(t)
	x := exportOf(t, file)
	var secret store.ExportRecord
	for _, r := range x.Records {
		if r.Secret {
			secret = r
			break
		}
	}
	flip := func(hex string) string {
		c := "0"
		if hex[10] == '0' {
			c = "1"
		}
		return hex[:10] + c + hex[11:]
	}
	t.Run("commitment", func(t *testing.T) {
		c := secret.Commitment.String()
		mustRefuse(t, replaceOnce(t, file, c, flip(c)), `the comment after move Sd1v-e3 is "{secret move of White, commitment `+flip(c))
	})
	t.Run("key", func(t *testing.T) {
		k := store.Digest(secret.Opening.Key).String()
		mustRefuse(t, replaceOnce(t, file, k, flip(k)), `opened with key `+flip(k)+`}", but the record gives`)
	})
}

func TestVerifyRefusesZeroedChainHead(t *testing.T) {
	file, _ := tamperBase(t)
	head := exportOf(t, file).Game.Head.String()
	zero := strings.Repeat("0", 64)
	mustRefuse(t, replaceOnce(t, file, `[ChainHead "`+head+`"]`, `[ChainHead "`+zero+`"]`), `the PGN tag ChainHead is "`+zero+`", but the record gives "`+head+`"`)
}

func TestVerifyRefusesAppendedGame(t *testing.T) {
	file, _ := tamperBase(t)
	second, err := readTestdata("export-v1-chess.pgn")
	if err != nil {
		t.Fatal(err)
	}
	mustRefuse(t, append(append([]byte{}, file...), second...), "text after the record")
	mustRefuse(t, append(append([]byte{}, file...), "\n1. e4 e5 *\n"...), "text after the record")
	if _, err := Verify(bytes.NewReader(append(append([]byte{}, file...), "\n \n\t\n"...))); err != nil {
		t.Errorf("blank lines after the record: %v", err)
	}
}

// withBlock is file with its embedded export replaced by x, the PGN text kept.
func withBlock(t *testing.T, file []byte, x *store.Export) []byte {
	t.Helper()
	i := bytes.Index(file, []byte("{"+store.ExportFormat))
	data, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte{}, file[:i]...)
	out = append(out, "{"+store.ExportFormat+"\n"...)
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		out = append(out, enc[:76]+"\n"...)
		enc = enc[76:]
	}
	return append(out, enc+"}\n"...)
}

func TestVerifyRefusesChangedEmbeddedField(t *testing.T) {
	file, _ := tamperBase(t)
	tests := []struct {
		name   string
		change func(g *store.ExportGame)
		want   string
	}{
		{"result", func(g *store.ExportGame) { g.Result = "0-1" }, `the embedded record's "result" is "0-1", but the hashed records say "1-0"`},
		{"status", func(g *store.ExportGame) { g.Status = "aborted" }, `the embedded record's "status" is "aborted", but the hashed records say "finished"`},
		{"ruleset", func(g *store.ExportGame) { g.Ruleset = "seachess-2025" }, `the embedded record's "ruleset" is "seachess-2025", but the hashed records say "`},
		{"time_control", func(g *store.ExportGame) { g.TimeControl = "30d" }, `the embedded record's "time_control" is "30d", but the hashed records say "3d"`},
		{"players", func(g *store.ExportGame) { g.Players[1] = "carol" }, `the embedded record's "players" is "\"alice\" v \"carol\"", but the hashed records say "\"alice\" v \"bob\""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := exportOf(t, file)
			tt.change(&x.Game)
			mustRefuse(t, withBlock(t, file, x), tt.want)
		})
	}
}

// TestVerifyRefusesRewrittenFinalEvent: the end record rewritten (Black wins instead) and
// the chain re-hashed makes a file consistent in itself; verify says that nothing anchors
// it, and refuses it when given the receipt Black's final mail quoted.
func TestVerifyRefusesRewrittenFinalEvent(t *testing.T) {
	file, receipts := tamperBase(t)
	x := exportOf(t, file)
	last := &x.Records[len(x.Records)-1]
	r, err := decodeRec(last.Record)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer("result=1-0", "result=0-1", "White%20wins:%20Black%20resigned", "Black%20wins:%20White%20resigned").Replace(r.Text)
	if text == r.Text {
		t.Fatalf("end record %q not rewritten", r.Text)
	}
	r.Text, r.Public = text, text
	last.Record, last.Text, last.Public = r.encode(), text, text
	x.Game.Result = "0-1"
	rehash(x)
	forged := forge(t, x)
	res, err := Verify(bytes.NewReader(forged))
	if err != nil || res.Result != "0-1" || !strings.HasPrefix(res.Anchoring(), "only self-consistent") {
		t.Fatalf("the forgery without receipts: %v, %+v", err, res)
	}
	final := receipts[len(receipts)-1]
	mustRefuse(t, forged, "but a receipt quotes "+final.Head.Short()+": the log was rewritten", receipts[2], final, receipts[0])
}

// TestVerifyRefusesSwappedSecretMove: a secret move swapped for another legal one with a
// fresh commitment and the chain re-hashed is refused given the receipt of the mail that
// followed the move.
func TestVerifyRefusesSwappedSecretMove(t *testing.T) {
	file, receipts := tamperBase(t)
	x := exportOf(t, file)
	at := -1
	for i, r := range x.Records {
		if r.Secret && r.Text == "sSe3-f5" {
			at = i
		}
	}
	if at < 0 {
		t.Fatal("no secret move sSe3-f5")
	}
	// Find another secret move there after which the game still replays.
	var moves []string
	for _, r := range x.Records {
		if r.Kind == store.KindMove {
			moves = append(moves, r.Text)
		}
	}
	ply := int(x.Records[at].Ply)
	v := variantOf(t, "seachess")
	before, _, _ := Replay(v, startOf(t, x).options(), moves[:ply])
	swap := ""
	for _, m := range before.Moves() {
		cand := before.Format(m)
		if cand == "sSe3-f5" {
			continue
		}
		try := append(append(append([]string{}, moves[:ply]...), cand), moves[ply+1:]...)
		_, plies, _ := Replay(v, startOf(t, x).options(), try)
		if n := len(plies); n == len(try) && plies[n-1].Err == nil && plies[ply].Secret {
			swap = cand
			break
		}
	}
	if swap == "" {
		t.Fatal("no other secret move keeps the game legal")
	}
	rec := &x.Records[at]
	c, o, err := store.Commit(x.Game.ID, rec.Ply, rec.Side, swap, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rec.Record = bytes.Replace(rec.Record, rec.Commitment[:], c[:], 1)
	rec.Commitment, rec.Opening, rec.Text = &c, &o, swap
	restate(t, x) // the lines the rules give the new move, and what follows from it
	rehash(x)
	forged := forge(t, x)
	res, err := Verify(bytes.NewReader(forged))
	if err != nil || !strings.HasPrefix(res.Anchoring(), "only self-consistent") {
		t.Fatalf("the forgery (%s for sSe3-f5) without receipts: %v", swap, err)
	}
	var after store.Receipt // the first receipt covering the move
	for _, rc := range receipts {
		if int(rc.Records) > at {
			after = rc
			break
		}
	}
	mustRefuse(t, forged, "a receipt quotes "+after.Head.Short()+": the log was rewritten", after)
	mustRefuse(t, forged, "the log was rewritten", receipts...)
}

// TestVerifyRefusesTruncatedLog: the log cut short (Black's last move removed, the end
// record moved up) and re-hashed is refused given the final receipt.
func TestVerifyRefusesTruncatedLog(t *testing.T) {
	file, receipts := tamperBase(t)
	x := exportOf(t, file)
	n := len(x.Records)
	end := x.Records[n-1]
	r, err := decodeRec(end.Record)
	if err != nil {
		t.Fatal(err)
	}
	r.Index--
	end.Record, end.Index = r.encode(), uint32(r.Index)
	x.Records = append(x.Records[:n-2], end)
	restate(t, x) // the end record after the last move left
	rehash(x)
	forged := forge(t, x)
	if _, err := Verify(bytes.NewReader(forged)); err != nil {
		t.Fatalf("the cut forgery without receipts: %v", err)
	}
	final := receipts[len(receipts)-1]
	mustRefuse(t, forged, "receipt quotes", final)
	mustRefuse(t, forged, fmt.Sprintf("the log ends after %d records but a receipt quotes %d: records were removed", n-1, n), final)
}

func startOf(t *testing.T, x *store.Export) Start {
	t.Helper()
	s, err := parseStart(x.Records[0].Text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOldFormatExportsStillVerify: files written before the start and end records bound
// the game's terms (format 1, record/testdata/export-v1-*.pgn) still verify, say what their
// record does not bind, and are still refused when altered.
func TestOldFormatExportsStillVerify(t *testing.T) {
	for _, name := range []string{"export-v1-seachess.pgn", "export-v1-chess.pgn"} {
		t.Run(name, func(t *testing.T) {
			file, err := readTestdata(name)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(bytes.NewReader(file))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(res.Unbound) == 0 || res.Moves == 0 {
				t.Errorf("%s: %+v", name, res)
			}
			crlf := bytes.ReplaceAll(file, []byte("\n"), []byte("\r\n")) // as saved from a mail
			if _, err := Verify(bytes.NewReader(crlf)); err != nil {
				t.Errorf("with CRLF line ends: %v", err)
			}
			mustRefuse(t, replaceOnce(t, file, `[Site "bottlepost"]`, `[Site "elsewhere"]`), `the PGN tag Site is "elsewhere", but the record gives "bottlepost"`)
			mustRefuse(t, append(append([]byte{}, file...), file...), "text after the record")
		})
	}
}

// TestVerifyCatchesTampering: a move changed in the move text, the embedded block damaged or
// removed, and a hashed record altered (caught by the chain: ErrTampered) are refused.
func TestVerifyCatchesTampering(t *testing.T) {
	file, _ := tamperBase(t)
	tests := []struct {
		name, old, new string
	}{
		{"a move changed in the movetext", "2. Bi2-i3", "2. Bi2-i4"},
		{"the export block damaged", "bottlepost-export/1\n", "bottlepost-export/1\nAAAA"},
		{"the block removed", "{bottlepost-export/1", "{comment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Verify(bytes.NewReader(replaceOnce(t, file, tt.old, tt.new))); err == nil {
				t.Errorf("tampered export verified")
			}
		})
	}
	x := exportOf(t, file)
	x.Records[2].Record[len(x.Records[2].Record)-1] ^= 1
	if _, err := Verify(bytes.NewReader(forge(t, x))); !errors.Is(err, store.ErrTampered) {
		t.Errorf("altered record: %v, want ErrTampered", err)
	}
}

// TestReplay: a record whose move is illegal, with a chain rebuilt to match, is caught on
// replay (the chain proves integrity, the replay legality): Replay stops at the first move
// that does not replay, with its error.
func TestReplay(t *testing.T) {
	tests := []struct {
		name  string
		moves []string
		bad   int // the ply that does not replay; -1 for none
	}{
		{"a legal game", []string{"f3", "e5", "g4", "Qg5"}, -1},
		{"an illegal queen move", []string{"f3", "e5", "g4", "Qh3"}, 3},
		{"an illegal first move", []string{"e5", "e4"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, plies, err := Replay(variantOf(t, "chess"), rules.Options{}, tt.moves)
			if err != nil {
				t.Fatal(err)
			}
			last := plies[len(plies)-1]
			switch {
			case tt.bad < 0 && (len(plies) != len(tt.moves) || last.Err != nil):
				t.Errorf("replayed %d of %d moves: %v", len(plies), len(tt.moves), last.Err)
			case tt.bad >= 0 && (len(plies) != tt.bad+1 || last.Err == nil):
				t.Errorf("stopped after %d plies (%v), want at ply %d with an error", len(plies), last.Err, tt.bad)
			}
		})
	}
}

func variantOf(t *testing.T, id string) rules.Variant {
	t.Helper()
	v, err := variants.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
