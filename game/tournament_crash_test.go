package game

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
)

// The crash test of a tournament's start: twenty players, a double round
// robin, 380 games. A child process (this test binary again,
// TestTournamentStartChild) handles the twentieth player's join, which
// starts every game in one transaction; the parent kills it with SIGKILL
// at a random moment of that work, reopens the database and finds either
// nothing started (the tournament still waiting, no game, no mail, the
// join not marked handled: the mail is then delivered again and starts
// it) or every game started exactly once, each player told once. Then
// the same join delivered again changes nothing.

const (
	tourCrashEnv = "BOTTLEPOST_TOURNAMENT_CHILD" // the child's directory
	tourCrashKey = "bp.key"
)

// crashTournamentPlayers are the twenty addresses of the crash test.
func crashTournamentPlayers() []string {
	var out []string
	for i := range 20 {
		out = append(out, fmt.Sprintf("p%02d@club.test", i+1))
	}
	return out
}

// openTournamentService opens the store in dir (made with a fixed key) and
// a service on it, clocked at the fixtures' time.
func openTournamentService(dir string) (*Service, *store.Store, error) {
	keyFile := filepath.Join(dir, tourCrashKey)
	if _, err := os.Stat(keyFile); err != nil {
		key := make([]byte, 32)
		for i := range key {
			key[i] = byte(i * 7)
		}
		if err := os.WriteFile(keyFile, key, 0o600); err != nil {
			return nil, nil, err
		}
	}
	st, err := store.Open(filepath.Join(dir, "bp.db"), store.Options{KeyFile: keyFile, LockTimeout: 10 * time.Second})
	if err != nil {
		return nil, nil, err
	}
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	svc, err := New(Config{Address: "games@bottlepost.test", Referees: []string{ref}},
		Options{Store: st, Clock: func() time.Time { return now }})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return svc, st, nil
}

// lastJoin is the twentieth player's join: the mail that starts the games.
func lastJoin(svc *Service) *Incoming {
	p := crashTournamentPlayers()[19]
	return &Incoming{MessageID: "join-20@club.test", From: p, Recipients: []string{svc.replyAddress(svc.accountToken(p))},
		Subject: "Re: Tournament 1: invitation · Club championship", Lines: []string{"join"}}
}

func TestTournamentStartChild(t *testing.T) {
	dir := os.Getenv(tourCrashEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestTournamentStartCrash")
	}
	svc, st, err := openTournamentService(dir)
	if err == nil {
		fmt.Println("tournament-child ready")
		_, err = svc.Handle(lastJoin(svc))
	}
	if err == nil {
		err = st.Close()
	}
	if err != nil {
		fmt.Println("tournament-child error", err)
		os.Exit(3)
	}
	fmt.Println("tournament-child done")
	os.Exit(0)
}

// setUpCrashTournament creates the tournament in dir and has nineteen of
// its twenty players join.
func setUpCrashTournament(t *testing.T, dir string) {
	t.Helper()
	svc, st, err := openTournamentService(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	players := crashTournamentPlayers()
	handle := func(in *Incoming) {
		if _, err := svc.Handle(in); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	for i := 0; i < 20; i += 5 {
		lines = append(lines, strings.Join(players[i:i+5], ", ")+",")
	}
	handle(&Incoming{MessageID: "new@club.test", From: ref, Recipients: []string{svc.replyAddress(svc.accountToken(ref))}, Subject: "new",
		Lines: append([]string{`tournament new "Club championship" variant chess time 3d double players`}, lines...)})
	for i, p := range players[:19] {
		handle(&Incoming{MessageID: fmt.Sprintf("join-%d@club.test", i+1), From: p, Recipients: []string{svc.replyAddress(svc.accountToken(p))},
			Subject: "Re: Tournament 1: invitation · Club championship", Lines: []string{"join"}})
	}
	if err := st.Update(func(tx *store.Tx) error {
		mails, err := tx.PendingMail(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), 1000)
		for _, m := range mails {
			if err := tx.MarkSent(m.ID); err != nil {
				return err
			}
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// startedState reads what the start left: the tournament's phase, its
// games, the games in the store, and the pending mails by recipient.
type startedState struct {
	phase      string
	tourGames  int
	storeGames int
	mails      map[string]int
	lists      map[string]int // the "your games" mails by recipient
	pairs      map[[2]uint64]int
}

func readStarted(t *testing.T, dir string) startedState {
	t.Helper()
	_, st, err := openTournamentService(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := startedState{mails: map[string]int{}, lists: map[string]int{}, pairs: map[[2]uint64]int{}}
	err = st.View(func(tx *store.Tx) error {
		tour, err := loadTournament(tx, 1)
		if err != nil {
			return err
		}
		s.phase, s.tourGames = tour.Phase, len(tour.Games)
		ids, err := tx.Games()
		if err != nil {
			return err
		}
		s.storeGames = len(ids)
		for _, id := range ids {
			l, err := load(tx, id)
			if err != nil {
				return err
			}
			if l.meta.Phase != phasePlay || l.meta.Tournament != 1 {
				return fmt.Errorf("game %d: phase %s, tournament %d", id, l.meta.Phase, l.meta.Tournament)
			}
			s.pairs[[2]uint64{l.g.Seats[0].Player, l.g.Seats[1].Player}]++
		}
		mails, err := tx.PendingMail(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), 2000)
		if err != nil {
			return err
		}
		for _, m := range mails {
			s.mails[m.To[0]]++
			if bytes.Contains(m.Data, []byte("your games")) {
				s.lists[m.To[0]]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkStarted says what is wrong with a start: "" when nothing started
// (none), or every game started exactly once (all).
func checkStarted(s startedState) (outcome string, problems []string) {
	total := 0
	for _, n := range s.mails {
		total += n
	}
	if s.phase == tourInvited && s.tourGames == 0 && s.storeGames == 0 && total == 0 {
		return "none", nil
	}
	outcome = "all"
	if s.phase != tourPlaying || s.tourGames != 380 || s.storeGames != 380 {
		problems = append(problems, fmt.Sprintf("phase %s, %d games in the tournament, %d in the store", s.phase, s.tourGames, s.storeGames))
	}
	if len(s.pairs) != 380 {
		problems = append(problems, fmt.Sprintf("%d distinct (White, Black) pairs, want 380", len(s.pairs)))
	}
	for _, p := range crashTournamentPlayers() {
		// 38 start mails and one list of games each; the twentieth player's
		// answer and the referee's notice on top.
		want := 39
		if p == crashTournamentPlayers()[19] {
			want = 40
		}
		if s.mails[p] != want || s.lists[p] != 1 {
			problems = append(problems, fmt.Sprintf("%s: %d mails (%d lists of games), want %d (1)", p, s.mails[p], s.lists[p], want))
		}
	}
	if s.mails[ref] != 1 {
		problems = append(problems, fmt.Sprintf("the referee got %d mails, want 1", s.mails[ref]))
	}
	return outcome, problems
}

// TestTournamentStartCrash kills the start of a 380-game tournament at
// random moments (5 rounds, 2 with -short; BOTTLEPOST_LONG=1: 20).
func TestTournamentStartCrash(t *testing.T) {
	rounds := 5
	switch {
	case os.Getenv("BOTTLEPOST_LONG") == "1":
		rounds = 20
	case testing.Short():
		rounds = 2
	}
	// How long an uninterrupted start takes, to kill within it.
	base := t.TempDir()
	setUpCrashTournament(t, base)
	begin := time.Now()
	out, err := childRun(base, 0)
	if err != nil || !strings.Contains(out, "tournament-child done") {
		t.Fatalf("the child did not finish: %v\n%s", err, out)
	}
	took := time.Since(begin)
	if outcome, problems := checkStarted(readStarted(t, base)); outcome != "all" || problems != nil {
		t.Fatalf("an uninterrupted start: %s %v", outcome, problems)
	}
	t.Logf("an uninterrupted start (process start included) took %v", took)
	seen := map[string]int{}
	for round := range rounds {
		dir := t.TempDir()
		setUpCrashTournament(t, dir)
		delay := time.Duration(rand.Int64N(int64(took)))
		out, _ := childRun(dir, delay)
		outcome, problems := checkStarted(readStarted(t, dir))
		for _, p := range problems {
			t.Errorf("round %d (killed after %v): %s", round, delay, p)
		}
		seen[outcome]++
		if outcome == "none" && strings.Contains(out, "tournament-child done") {
			t.Errorf("round %d: the child finished, yet nothing started", round)
		}
		// The join delivered again (the mail was not marked handled, or
		// is a duplicate): afterwards every game has started exactly once.
		svc, st, err := openTournamentService(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Handle(lastJoin(svc)); err != nil {
			t.Fatal(err)
		}
		st.Close()
		if outcome, problems := checkStarted(readStarted(t, dir)); outcome != "all" || problems != nil {
			t.Errorf("round %d: after the redelivery: %s %v", round, outcome, problems)
		}
	}
	t.Logf("outcomes of the kills: %v", seen)
}

// childRun runs the child in dir and kills it with SIGKILL after delay
// (0: lets it finish); it returns what the child printed.
func childRun(dir string, delay time.Duration) (string, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestTournamentStartChild$")
	cmd.Env = append(os.Environ(), tourCrashEnv+"="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	if delay > 0 {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return out.String(), err
		case <-time.After(delay):
			cmd.Process.Signal(syscall.SIGKILL)
			<-done
			return out.String(), nil
		}
	}
	err := cmd.Wait()
	return out.String(), err
}
