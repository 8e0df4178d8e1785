package store

import (
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tlog sends the store's logs to t.Log.
type tlog struct{ t testing.TB }

func (w tlog) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tlog{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// openTest opens (or creates) dir/game.db.
func openTest(t testing.TB, dir string) *Store {
	t.Helper()
	st, err := Open(filepath.Join(dir, "game.db"), Options{Logger: testLogger(t)})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// newGame creates two players and a game between them, with a reply token per seat.
func newGame(tb testing.TB, st *Store, hidden bool) *Game {
	tb.Helper()
	var g *Game
	err := st.Update(func(tx *Tx) error {
		var err error
		g, err = createGame(tx, hidden, t0)
		return err
	})
	if err != nil {
		tb.Fatalf("create game: %v", err)
	}
	return g
}

// createGame makes players (or finds them by address) and a game; used by the tests, the
// crash child, the benchmarks and the fixture.
func createGame(tx *Tx, hidden bool, now time.Time) (*Game, error) {
	n := tx.bucket(bucketPlayers).Sequence() / 2 // a fresh pair of addresses per game
	var seats [2]Seat
	for i, name := range []string{"Alice", "Bob"} {
		addr := fmt.Sprintf("%s%d@example.org", strings.ToLower(name), n)
		p := &Player{Name: name, Address: addr, Created: now}
		if err := tx.PutPlayer(p); err != nil {
			return nil, err
		}
		seats[i] = Seat{Player: p.ID, Address: addr}
	}
	variant := "fide"
	if hidden {
		variant = "seachess"
	}
	g := &Game{Variant: variant, Ruleset: variant + "/1", TimeControl: "3d/move", Seats: seats, Hidden: hidden,
		State: testState(-1), PublicState: []byte("public"), Created: now, Updated: now}
	if err := tx.CreateGame(g); err != nil {
		return nil, err
	}
	for side, seat := range g.Seats {
		tok := fmt.Sprintf("tok%dx%d", g.ID, side)
		if err := tx.PutToken(tok, TokenRef{Game: g.ID, Player: seat.Player, Side: Side(side)}); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// testState is the fake rules-engine state after move n (-1: the start), about the size of
// a real one.
func testState(n int) []byte {
	s := fmt.Sprintf("state-after-%d;", n)
	return []byte(s + strings.Repeat("x", 160-len(s)))
}

func msgID(game uint64, n int) string { return fmt.Sprintf("<m%d.%d@players.example>", game, n) }

// moveText is move n's text: distinct per move, so a secret one can be looked for in a file.
func moveText(n int) string { return fmt.Sprintf("Sx%d-y%d", n, n*7%13) }

// accept applies move n to a game the way the game service will, in one transaction: mark
// the incoming mail processed, append the record, replace the state and deadlines, queue a
// mail to each side. In a hidden game every odd move is secret.
func accept(tx *Tx, game uint64, n int, now time.Time) (*Record, error) {
	if err := tx.MarkProcessed(msgID(game, n), now); err != nil {
		return nil, err
	}
	g, err := tx.Game(game)
	if err != nil {
		return nil, err
	}
	if g.Records != uint32(n) {
		return nil, fmt.Errorf("move %d, but game %d has %d records", n, game, g.Records)
	}
	side := Side(n % 2)
	secret := g.Hidden && n%2 == 1
	text := moveText(n)
	// Both sides and the public see the same line for a public move; for a secret one the
	// mover sees the move, the opponent and the public only "(h)".
	line := fmt.Sprintf("%d. %s", n/2+1, text)
	e := Entry{Kind: KindMove, Ply: uint32(n), Side: side, Text: text, Secret: secret, Public: line,
		Lines: [2]string{line, line}, At: now}
	if secret {
		e.Public = fmt.Sprintf("%d. (h)", n/2+1)
		e.Lines[1-side] = e.Public
	}
	rec, err := tx.Append(g, e)
	if err != nil {
		return nil, err
	}
	g.State = testState(n)
	g.Deadlines = []Deadline{{At: now.Add(48 * time.Hour), Kind: DeadlineReminder}, {At: now.Add(72 * time.Hour), Kind: DeadlineTimeout}}
	g.Updated = now
	if err := tx.PutGame(g); err != nil {
		return nil, err
	}
	for s, seat := range g.Seats {
		m := &Mail{Game: game, From: "referee@bottlepost.example", To: []string{seat.Address}, Created: now,
			Data: fmt.Appendf(nil, "Message-ID: <out.%d.%d.%d@bottlepost.example>\r\nX-Test: %d %d %d\r\nSubject: game %d move %d\r\n\r\n%s\r\nchain %d %s\r\n",
				game, n, s, game, n, s, game, n, rec.Lines[s], g.Records, g.Head)}
		if err := tx.Enqueue(m); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

// finish ends a game with a result event.
func finish(tx *Tx, game uint64, now time.Time) error {
	g, err := tx.Game(game)
	if err != nil {
		return err
	}
	if _, err := tx.Append(g, Entry{Kind: KindEvent, Ply: g.Records, Side: Side(g.Records % 2), Text: "resigns",
		Public: "resigns", At: now}); err != nil {
		return err
	}
	g.Status, g.Result, g.Deadlines, g.Updated = StatusFinished, "1-0", nil, now
	return tx.PutGame(g)
}

func wantErr(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v, want %v", err, target)
	}
	if !strings.HasPrefix(err.Error(), "store: ") {
		t.Errorf("error %q does not start with \"store: \"", err)
	}
}

// newToken is a fresh reply token as a mail would carry one: 128 bits from rand as 26
// lowercase base-32 characters.
func newToken(rand io.Reader) (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(rand, b[:]); err != nil {
		return "", err
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])), nil
}
