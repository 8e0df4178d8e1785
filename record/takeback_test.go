package record

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/store"
)

// withTakeback is the worked example's export with a takeback record of
// side's move at ply inserted before record at, the later records
// renumbered and the chain re-hashed: what a forger holding the file
// could write.
func withTakeback(t *testing.T, file []byte, at int, side store.Side, ply uint32) *store.Export {
	t.Helper()
	x := exportOf(t, file)
	prev, err := decodeRec(x.Records[at-1].Record)
	if err != nil {
		t.Fatal(err)
	}
	tb := rawRec{Kind: byte(store.KindTakeback), Flags: 4 | 8, Side: byte(side), Index: uint64(at), Ply: uint64(ply),
		Sec: prev.Sec, Nano: prev.Nano, Text: "takeback", Public: "takeback"}
	rec := store.ExportRecord{Index: uint32(at), Ply: ply, Side: side, Kind: store.KindTakeback, At: x.Records[at-1].At,
		Text: "takeback", Public: "takeback", Lines: [2]string{"takeback", "takeback"}, Record: tb.encode()}
	x.Records = append(x.Records[:at], append([]store.ExportRecord{rec}, x.Records[at:]...)...)
	for i := at + 1; i < len(x.Records); i++ {
		r, err := decodeRec(x.Records[i].Record)
		if err != nil {
			t.Fatal(err)
		}
		r.Index = uint64(i)
		x.Records[i].Index, x.Records[i].Record = uint32(i), r.encode()
	}
	rehash(x)
	return x
}

// TestVerifyTakebacks: a takeback record replays (the position returns to
// before the move it names), must name the move that stands last, and an
// inserted one is caught by the receipts.
func TestVerifyTakebacks(t *testing.T) {
	file, receipts := tamperBase(t)
	x := exportOf(t, file)
	end := len(x.Records) - 1
	last := x.Records[end-1] // Black's last move, before the end record
	t.Run("the last move taken back replays", func(t *testing.T) {
		y := withTakeback(t, file, end, last.Side, last.Ply)
		// The end record follows the line that stands: at the ply of the
		// move taken back, its side to move again.
		e := &y.Records[len(y.Records)-1]
		r, err := decodeRec(e.Record)
		if err != nil {
			t.Fatal(err)
		}
		r.Ply, r.Side = uint64(last.Ply), byte(last.Side)
		e.Ply, e.Side, e.Record = last.Ply, last.Side, r.encode()
		rehash(y)
		forged := forge(t, y)
		res, err := Verify(bytes.NewReader(forged))
		if err != nil {
			t.Fatalf("refused: %v", err)
		}
		if res.Takebacks != 1 || res.Moves != 11 || !strings.HasPrefix(res.Anchoring(), "only self-consistent") {
			t.Errorf("%d takebacks, %d moves, %s", res.Takebacks, res.Moves, res.Anchoring())
		}
		if !strings.Contains(strings.Join(strings.Fields(string(forged)), " "), "Black's 6... "+last.Text+" taken back by consent} 1-0") {
			t.Errorf("the PGN does not show the move taken back:\n%s", forged)
		}
		mustRefuse(t, forged, "the log was rewritten", receipts[len(receipts)-1])
		// Without the end record moved, the end does not follow the line.
		mustRefuse(t, forge(t, withTakeback(t, file, end, last.Side, last.Ply)), "the end record is at ply 12, but the game has 11 moves")
	})
	t.Run("the wrong side", func(t *testing.T) {
		mustRefuse(t, forge(t, withTakeback(t, file, end, 1-last.Side, last.Ply)), "takes back white's move at ply 11, but the move that stands last is black's at ply 11")
	})
	t.Run("the wrong ply", func(t *testing.T) {
		mustRefuse(t, forge(t, withTakeback(t, file, end, last.Side, last.Ply-2)), "but the move that stands last is black's at ply 11")
	})
	t.Run("before any move", func(t *testing.T) {
		mustRefuse(t, withBlock(t, file, withTakeback(t, file, 1, 0, 0)), "takes back a move, but no move stands")
	})
	t.Run("mid-game, the moves after it no longer legal", func(t *testing.T) {
		first := x.Records[1]
		mustRefuse(t, forge(t, withTakeback(t, file, 2, first.Side, first.Ply)), "is not legal")
	})
}
