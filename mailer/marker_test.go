package mailer

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

// gate is a mark function the test releases commit by commit.
type gate struct {
	mu      sync.Mutex
	commits [][]uint64 // ids of every commit started, in order
	release chan error // one value per commit, its result
}

func newGate() *gate { return &gate{release: make(chan error)} }

func (g *gate) mark(ids []uint64) error {
	g.mu.Lock()
	g.commits = append(g.commits, ids)
	g.mu.Unlock()
	return <-g.release
}

func (g *gate) started() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.commits)
}

// waitStarted waits until n commits have started.
func (g *gate) waitStarted(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for g.started() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d commits started, want %d", g.started(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func queued(ids ...uint64) []Queued {
	ms := make([]Queued, len(ids))
	for i, id := range ids {
		ms[i] = Queued{ID: id}
	}
	return ms
}

func TestSentMarker(t *testing.T) {
	t.Run("one commit at a time, the rest batched behind it", func(t *testing.T) {
		g := newGate()
		var marked []uint64
		mk := &sentMarker{mark: g.mark, window: 4, marked: func(ms []Queued) {
			for _, m := range ms {
				marked = append(marked, m.ID)
			}
		}}
		if err := mk.accepted(Queued{ID: 1}); err != nil {
			t.Fatal(err)
		}
		g.waitStarted(t, 1) // mail 1 goes at once
		for id := uint64(2); id <= 4; id++ {
			if err := mk.accepted(Queued{ID: id}); err != nil { // below the window: no wait
				t.Fatal(err)
			}
		}
		if g.started() != 1 {
			t.Fatalf("%d commits under way, want 1", g.started())
		}
		// The fourth pending mail fills the window: accepted waits for the
		// commit under way, then starts one for the four.
		done := make(chan error)
		go func() { done <- mk.accepted(Queued{ID: 5}) }()
		select {
		case <-done:
			t.Fatal("accepted returned with the window full and the commit under way not done")
		case <-time.After(20 * time.Millisecond):
		}
		g.release <- nil
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		g.waitStarted(t, 2)
		go func() { g.release <- nil }()
		if err := mk.settle(); err != nil {
			t.Fatal(err)
		}
		if want := [][]uint64{{1}, {2, 3, 4, 5}}; !slices.EqualFunc(g.commits, want, slices.Equal) {
			t.Errorf("commits %v, want %v", g.commits, want)
		}
		if mk.count != 5 || !slices.Equal(marked, []uint64{1, 2, 3, 4, 5}) {
			t.Errorf("count %d, marked %v; want 5, [1 2 3 4 5]", mk.count, marked)
		}
	})

	t.Run("never more than twice the window unmarked", func(t *testing.T) {
		const window = 3
		var mu sync.Mutex
		unmarked, worst := 0, 0
		mk := &sentMarker{window: window, mark: func(ids []uint64) error {
			time.Sleep(time.Millisecond) // a commit slower than a send
			mu.Lock()
			unmarked -= len(ids)
			mu.Unlock()
			return nil
		}}
		for id := uint64(1); id <= 100; id++ {
			mu.Lock()
			unmarked++
			worst = max(worst, unmarked)
			mu.Unlock()
			if err := mk.accepted(Queued{ID: id}); err != nil {
				t.Fatal(err)
			}
		}
		if err := mk.settle(); err != nil {
			t.Fatal(err)
		}
		if worst > 2*window || unmarked != 0 || mk.count != 100 {
			t.Errorf("at worst %d unmarked (limit %d), %d left, %d counted", worst, 2*window, unmarked, mk.count)
		}
	})

	t.Run("a failed commit is reported and not counted", func(t *testing.T) {
		broken := errors.New("disk full")
		mk := &sentMarker{window: 4, mark: func([]uint64) error { return broken }}
		for _, m := range queued(1, 2) {
			if err := mk.accepted(m); err != nil && !errors.Is(err, broken) {
				t.Fatal(err)
			}
		}
		if err := mk.settle(); !errors.Is(err, broken) {
			t.Errorf("settle: %v, want %v", err, broken)
		}
		if mk.count != 0 {
			t.Errorf("%d counted as marked after failed commits", mk.count)
		}
	})

	t.Run("wait lands the commit under way and drops the pending", func(t *testing.T) {
		g := newGate()
		mk := &sentMarker{mark: g.mark, window: 8}
		for _, m := range queued(1, 2, 3) {
			if err := mk.accepted(m); err != nil {
				t.Fatal(err)
			}
		}
		g.waitStarted(t, 1)
		go func() { g.release <- nil }()
		mk.wait()
		if mk.count != 1 || g.started() != 1 {
			t.Errorf("count %d after %d commits; want 1 after 1 (2 and 3 are sent again)", mk.count, g.started())
		}
	})

	t.Run("settle with nothing accepted commits nothing", func(t *testing.T) {
		mk := &sentMarker{window: 2, mark: func([]uint64) error { t.Error("commit of nothing"); return nil }}
		if err := mk.settle(); err != nil || mk.count != 0 {
			t.Errorf("settle: %v, count %d", err, mk.count)
		}
	})
}
