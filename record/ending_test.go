package record

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/store"
)

// vectorFile reads a test vector (testdata/vectors/NAME.pgn).
func vectorFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := readTestdata("vectors/" + name + ".pgn")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dropMoves removes the last n move records of x, keeping its end record.
func dropMoves(t *testing.T, x *store.Export, n int) {
	t.Helper()
	end := x.Records[len(x.Records)-1]
	x.Records = x.Records[:len(x.Records)-1-n]
	r, err := decodeRec(end.Record)
	if err != nil {
		t.Fatal(err)
	}
	r.Index = uint64(len(x.Records))
	end.Index, end.Record = uint32(r.Index), r.encode()
	x.Records = append(x.Records, end)
}

// endWith rewrites x's end record to say result and termination (the rest as it was).
func endWith(t *testing.T, x *store.Export, result, termination string) {
	t.Helper()
	rec := &x.Records[len(x.Records)-1]
	e, err := parseEnd(rec.Text, false)
	if err != nil {
		t.Fatal(err)
	}
	e.Result, e.Termination, e.Status = result, termination, store.StatusFinished.String()
	r, err := decodeRec(rec.Record)
	if err != nil {
		t.Fatal(err)
	}
	r.Text, r.Public = e.Text(), e.Text()
	rec.Text, rec.Public, rec.Record = r.Text, r.Public, r.encode()
	x.Game.Result = result
}

// TestVerifyRefusesFalseRulesEnding: an end record that claims an ending of the rules
// (checkmate, stalemate, repetition, a move-count draw, victory points, a bare Admiral, a
// commando ship lost) where the rules do not end the game, or that says another ending where
// they do — the forger having cut moves, rewritten the end record, kept it after the last
// move and re-hashed it all — is refused, whatever receipts are given; and so is an ending
// that is the server's word but cannot be: a loss on time by the side not to move, a text
// that names no ending bottlepost writes. The record's end is judged where its last move
// leaves the game.
func TestVerifyRefusesFalseRulesEnding(t *testing.T) {
	tests := []struct {
		name, vector string
		drop         int // moves cut from the end
		result, term string
		want         string
	}{
		{"checkmate kept, the mating move dropped", "chess", 1, "1-0", "White wins: checkmate (FIDE 5.1.1)",
			`the rules do not end the game at the last position; the end record says "White wins: checkmate (FIDE 5.1.1)" (1-0), which is neither`},
		{"stalemate", "chess", 1, "1/2-1/2", "drawn: stalemate (FIDE 5.2.1)", `the end record says "drawn: stalemate (FIDE 5.2.1)"`},
		{"threefold repetition", "chess", 2, "1/2-1/2", "drawn: threefold repetition (FIDE 9.2)", "the rules do not end the game"},
		{"fifty-move rule", "chess", 3, "1/2-1/2", "drawn: fifty-move rule: 50 moves each without a capture or pawn move (FIDE 9.3)", "the rules do not end the game"},
		{"dead position", "chess", 1, "1/2-1/2", "drawn: dead position: neither side can checkmate (FIDE 5.2.2)", "the rules do not end the game"},
		{"Seachess checkmate kept, the last move dropped", "seachess", 1, "0-1", "Black wins: checkmate (S9)", "the rules do not end the game"},
		{"commando ship lost to a mine", "seachess", 2, "0-1", "Black wins: commando ship lost to a mine (S3.5)", "the rules do not end the game"},
		{"Submachine checkmate kept", "submachine", 1, "1-0", "White wins: checkmate (M6)", "the rules do not end the game"},
		{"victory points kept", "baltic-holdorf", 1, "0-1", "Black wins: 3 victory points (B4.4)", "the rules do not end the game"},
		{"more points, a round early", "baltic-sc2022", 2, "0-1", "Black wins: more points (B5)", "the rules do not end the game"},
		{"Chess-Battle checkmate kept", "battle", 1, "0-1", "Red wins: checkmate (C5)", "the rules do not end the game"},
		{"a bare Admiral", "transporter", 1, "1-0", "White wins: Black is reduced to a bare Admiral (T6)", "the rules do not end the game"},
		{"a mate called a resignation", "chess", 0, "1-0", "White wins: Black resigned",
			`the rules end the game at the last position: 1-0 White wins: checkmate (FIDE 5.1.1), but the end record says 1-0 "White wins: Black resigned"`},
		{"a mate called a draw agreed", "chess", 0, "1/2-1/2", "drawn: draw agreed", "the rules end the game at the last position: 1-0 White wins: checkmate"},
		{"a loss on time by the side not to move", "chess", 1, "1-0", "White wins: Black lost on time",
			`the end record says "White wins: Black lost on time", but Black was not to move: only the side to move can lose on time`},
		{"an ending bottlepost never writes", "chess", 1, "1-0", "White wins: Black fell asleep", `"White wins: Black fell asleep" (1-0), which is neither`},
		{"a result that does not go with its words", "chess", 1, "0-1", "White wins: Black resigned", `"White wins: Black resigned" (0-1), which is neither`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := exportOf(t, vectorFile(t, tt.vector))
			dropMoves(t, x, tt.drop)
			endWith(t, x, tt.result, tt.term)
			restate(t, x)
			rehash(x)
			forged := forge(t, x)
			mustRefuse(t, forged, tt.want)
			final := store.Receipt{Records: x.Game.Records, Head: x.Game.Head}
			mustRefuse(t, forged, tt.want, final) // the forger's own final receipt does not help
		})
	}
}

// TestVerifyDroppedLastMove: the mating move dropped and the end record turned into a
// resignation, all re-hashed, is a record that agrees with itself and with the rules: it
// verifies as only self-consistent, and as anchored only as far as the receipts from before
// the mate reach (every earlier receipt holds: this is the two histories docs/verify.md
// tells players to catch by comparing receipts); the final receipt the real game's mails
// quoted refuses it.
func TestVerifyDroppedLastMove(t *testing.T) {
	file := vectorFile(t, "chess")
	receipts := vectorReceipts(t, "chess")
	x := exportOf(t, file)
	dropMoves(t, x, 1)
	endWith(t, x, "1-0", "White wins: Black resigned")
	restate(t, x)
	rehash(x)
	forged := forge(t, x)
	res, err := Verify(bytes.NewReader(forged))
	if err != nil || res.ServersWord != Resignation || !strings.HasPrefix(res.Anchoring(), "only self-consistent") {
		t.Fatalf("the forgery without receipts: %v %+v", err, res)
	}
	var before []store.Receipt // the receipts that cover no more than the moves kept
	for _, rc := range receipts {
		if rc.Records < x.Game.Records {
			before = append(before, rc)
		}
	}
	res, err = Verify(bytes.NewReader(forged), before...)
	if err != nil || res.Anchor.Records == 0 || res.Anchor.Records >= res.Records {
		t.Fatalf("the forgery with the receipts from before the mate: %v; anchored %d of %d", err, res.Anchor.Records, res.Records)
	}
	final := receipts[len(receipts)-1]
	mustRefuse(t, forged, "the log ends after 6 records but a receipt quotes 7: records were removed", final)
}

// TestVerifyRefusesEndOffItsMove: an end record that does not sit right after the last move
// (another ply, or the side that is not to move), re-hashed, is refused.
func TestVerifyRefusesEndOffItsMove(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(r *rawRec)
		want   string
	}{
		{"a ply later", func(r *rawRec) { r.Ply++ }, "the end record is at ply 6, but the game has 5 moves: the end does not follow the last move"},
		{"a ply earlier", func(r *rawRec) { r.Ply-- }, "the end record is at ply 4, but the game has 5 moves"},
		{"the other side's", func(r *rawRec) { r.Side ^= 1 }, "the end record is White's, but after the last move Black is to move"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			x := exportOf(t, vectorFile(t, "chess"))
			end := &x.Records[len(x.Records)-1]
			r, err := decodeRec(end.Record)
			if err != nil {
				t.Fatal(err)
			}
			tt.change(&r)
			end.Record, end.Ply, end.Side = r.encode(), uint32(r.Ply), store.Side(r.Side)
			rehash(x)
			mustRefuse(t, forge(t, x), tt.want)
		})
	}
}

// TestVerifyRefusesFalseLines: what the players were told is bound by the rules: a move
// record's public line, or either side's line, that is not the one the rules report on
// replay is refused — a sealed line (which only the export shows) against every real
// receipt, a line in the clear re-hashed.
func TestVerifyRefusesFalseLines(t *testing.T) {
	moveAt := func(t *testing.T, x *store.Export, pick func(store.ExportRecord) bool) *store.ExportRecord {
		t.Helper()
		for i := range x.Records {
			if r := x.Records[i]; r.Kind == store.KindMove && pick(r) {
				return &x.Records[i]
			}
		}
		t.Fatal("no such move in the vector")
		return nil
	}
	tests := []struct {
		name, vector string
		change       func(t *testing.T, x *store.Export)
		rehash       bool // the change is in the hashed record
		want         string
	}{
		{"a secret move's own line (sealed) says a resignation", "seachess", func(t *testing.T, x *store.Export) {
			rec := moveAt(t, x, func(r store.ExportRecord) bool { return r.Secret && r.Side == store.Side(1) })
			rec.Lines[1] = "White resigned"
		}, false, `Black's line is "White resigned", but the rules report "Si12v-h10 (h)"`},
		{"a secret move's line for White (sealed)", "seachess", func(t *testing.T, x *store.Export) {
			rec := moveAt(t, x, func(r store.ExportRecord) bool { return r.Secret && r.Side == store.Side(0) })
			rec.Lines[0] = "Sf2v-d1 (h); Black resigned"
		}, false, `White's line is "Sf2v-d1 (h); Black resigned", but the rules report "Sf2v-d1 (h)"`},
		{"the public line tells of a mine strike", "seachess", func(t *testing.T, x *store.Export) {
			rec := moveAt(t, x, func(r store.ExportRecord) bool { return r.Text == "Bf2-f5" })
			r, err := decodeRec(rec.Record)
			if err != nil {
				t.Fatal(err)
			}
			r.Public = "Bf2-f5; Bf5 struck a mine"
			rec.Public, rec.Record = r.Public, r.encode()
			for side := range 2 {
				if r.Flags&(4<<side) != 0 {
					rec.Lines[side] = r.Public
				}
			}
		}, true, `the public line is "Bf2-f5; Bf5 struck a mine", but the rules report "Bf2-f5"`},
		{"a line in the clear", "chess", func(t *testing.T, x *store.Export) {
			rec := moveAt(t, x, func(r store.ExportRecord) bool { return r.Text == "g5" })
			r, err := decodeRec(rec.Record)
			if err != nil {
				t.Fatal(err)
			}
			r.Flags &^= 4 << 1
			r.Lines[1] = "g5 (Black's queen is lost)"
			rec.Lines[1], rec.Record = r.Lines[1], r.encode()
		}, true, `Black's line is "g5 (Black's queen is lost)", but the rules report "g5"`},
		{"a sealed line that the record gives the public line", "seachess", func(t *testing.T, x *store.Export) {
			rec := moveAt(t, x, func(r store.ExportRecord) bool { return r.Secret && r.Side == store.Side(0) })
			rec.Lines[1] = "(h); White resigned" // Black's line of White's secret move is the public "(h)"
		}, false, "the hashed record gives side 1 the public line, but the export shows it another"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := exportOf(t, vectorFile(t, tt.vector))
			tt.change(t, x)
			if tt.rehash {
				rehash(x)
				mustRefuse(t, forge(t, x), tt.want)
				return
			}
			mustRefuse(t, forge(t, x), tt.want, vectorReceipts(t, tt.vector)...)
		})
	}
}

// TestVerifyRefusesMisrecordedMove: a move record at another ply or of the side not to
// move, written otherwise than the rules write it, or secret when the rules make it public
// (re-hashed each) is refused.
func TestVerifyRefusesMisrecordedMove(t *testing.T) {
	tests := []struct {
		name   string
		text   string // the move changed
		change func(r *rawRec, rec *store.ExportRecord)
		want   string
	}{
		{"another ply", "g5", func(r *rawRec, rec *store.ExportRecord) { r.Ply = 3; rec.Ply = 3 }, "record 2, move 1... g5 of Black: the record says ply 3, but it is ply 1"},
		{"the other side", "g5", func(r *rawRec, rec *store.ExportRecord) { r.Side = 0; rec.Side = 0 }, "the record says it is White's move, but Black is to move"},
		{"another spelling", "Bc4", func(r *rawRec, rec *store.ExportRecord) {
			r.Text, rec.Text = "Bf1-c4", "Bf1-c4"
		}, `the record writes it "Bf1-c4", but the rules write that move "Bc4"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := exportOf(t, vectorFile(t, "chess"))
			for i := range x.Records {
				rec := &x.Records[i]
				if rec.Text != tt.text {
					continue
				}
				r, err := decodeRec(rec.Record)
				if err != nil {
					t.Fatal(err)
				}
				tt.change(&r, rec)
				rec.Record = r.encode()
			}
			rehash(x)
			mustRefuse(t, forge(t, x), tt.want)
		})
	}
}

// TestVerifyRefusesSecretMoveInClear: a secret move's record that holds its text in the
// clear (the server leaking it while the game was on) is refused, though its commitment
// opens and the chain is re-hashed to match.
func TestVerifyRefusesSecretMoveInClear(t *testing.T) {
	x := exportOf(t, vectorFile(t, "seachess"))
	n := 0
	for i := range x.Records {
		rec := &x.Records[i]
		if !rec.Secret {
			continue
		}
		r, err := decodeRec(rec.Record)
		if err != nil {
			t.Fatal(err)
		}
		r.Text = rec.Text
		rec.Record = r.encode()
		n++
		break
	}
	if n == 0 {
		t.Fatal("no secret move")
	}
	rehash(x)
	mustRefuse(t, forge(t, x), "holds the text \"Si12v-h10\" in the clear")
}

// TestVerifyToleratesSavedFile: what saving an attachment may do to a file — CRLF line ends,
// blank lines after the block, the final line feed removed — and a receipt typed in upper
// case or as its head alone (as mails quoted it before RECORDS:HEAD) are taken; docs/verify.md
// says so ("What a verifier tolerates").
func TestVerifyToleratesSavedFile(t *testing.T) {
	file := vectorFile(t, "chess")
	receipts := vectorReceipts(t, "chess")
	final := receipts[len(receipts)-1]
	for _, tt := range []struct {
		name    string
		file    []byte
		receipt string
	}{
		{"as written", file, final.String()},
		{"CRLF line ends", bytes.ReplaceAll(file, []byte("\n"), []byte("\r\n")), final.String()},
		{"blank lines after the block", append(bytes.Clone(file), " \r\n\t\n\n"...), final.String()},
		{"no final line feed", bytes.TrimSuffix(file, []byte("\n")), final.String()},
		{"CRLF, no final line feed", bytes.TrimSuffix(bytes.ReplaceAll(file, []byte("\n"), []byte("\r\n")), []byte("\r\n")), final.String()},
		{"the receipt in upper case", file, strings.ToUpper(final.String())},
		{"the head alone", file, final.Head.String()},
		{"the head alone, in upper case", file, strings.ToUpper(final.Head.String())},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rc, err := store.ParseReceipt(tt.receipt)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(bytes.NewReader(tt.file), rc)
			if err != nil || res.Anchor.Records != res.Records {
				t.Errorf("%v; anchored %d of %d", err, res.Anchor.Records, res.Records)
			}
		})
	}
	for i, rc := range receipts[:len(receipts)-1] {
		head := store.Receipt{Head: rc.Head, Uncounted: true}
		if res, err := Verify(bytes.NewReader(file), head); err != nil || res.Anchor.Records != rc.Records {
			t.Errorf("receipt %d as its head alone: %v, anchored %d, want %d", i, err, res.Anchor.Records, rc.Records)
		}
	}
	other := store.Receipt{Head: store.ChainStart(2), Uncounted: true}
	mustRefuse(t, file, fmt.Sprintf("a receipt quotes the head %s, which is the head after none of the game's %d records", other.Head.Short(), exportOf(t, file).Game.Records), other)
	mustRefuse(t, append(bytes.Clone(file), "\v"...), "text after the record")
}
