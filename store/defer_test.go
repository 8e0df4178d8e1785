package store

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// textJob is a deferred job making its text, or failing or panicking as told: a value
// holding all it needs.
type textJob struct {
	text  string
	fail  error    // returned instead of the text
	panic string   // panicked with, when not empty
	busy  *overlap // counts the jobs running at once (nil: none)
}

func (j textJob) Run() ([]byte, error) {
	if j.busy != nil {
		j.busy.enter()
		defer j.busy.in.Add(-1)
	}
	if j.panic != "" {
		panic(j.panic)
	}
	if j.fail != nil {
		return nil, j.fail
	}
	return []byte(j.text), nil
}

// overlap counts the jobs running at once, and the most that did.
type overlap struct{ in, most atomic.Int64 }

// enter counts a job in, and waits until another one runs beside it (or a while).
func (o *overlap) enter() {
	now := o.in.Add(1)
	for m := o.most.Load(); now > m && !o.most.CompareAndSwap(m, now); m = o.most.Load() {
	}
	for deadline := time.Now().Add(20 * time.Millisecond); o.in.Load() < 2 && time.Now().Before(deadline); {
		runtime.Gosched()
	}
}

// Jobs deferred by concurrent Batch calls: each call's job runs outside the transaction's
// functions and its finish writes what the job made; a job that fails, a job that panics
// and a finish that fails each fail only their own call, whose function and job leave
// nothing, and the calls beside them are committed all the same. On a machine with more
// than one core, jobs run side by side.
func TestBatchDefer(t *testing.T) {
	st := openTest(t, t.TempDir())
	errWork, errFinish := errors.New("work failed"), errors.New("finish failed")
	const n = 200
	var busy overlap
	queued := func() (int, bool) {
		st.group.mu.Lock()
		defer st.group.mu.Unlock()
		return len(st.group.queue), st.group.leading
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	first := make(chan struct{})
	wg.Go(func() {
		errs[0] = st.Batch(func(tx *Tx) error {
			<-first
			return tx.PutSetting("w000", []byte("0"))
		})
	})
	for q, leading := queued(); q != 0 || !leading; q, leading = queued() {
		runtime.Gosched()
	}
	for i := 1; i < n; i++ {
		wg.Go(func() {
			errs[i] = st.Batch(func(tx *Tx) error {
				if err := tx.PutSetting(fmt.Sprintf("f%03d", i), []byte{1}); err != nil {
					return err
				}
				job := textJob{text: strings.Repeat("x", i%7) + fmt.Sprint(i), busy: &busy}
				switch i % 50 {
				case 7:
					job.fail = fmt.Errorf("call %d: %w", i, errWork)
				case 13:
					job.panic = fmt.Sprintf("call %d's work blew up", i)
				}
				return tx.Defer(job, func(tx *Tx, made []byte) error {
					if i%50 == 21 {
						return fmt.Errorf("call %d: %w", i, errFinish)
					}
					return tx.PutSetting(fmt.Sprintf("w%03d", i), made)
				})
			})
		})
	}
	for q, _ := queued(); q < n-1; q, _ = queued() {
		runtime.Gosched()
	}
	close(first)
	wg.Wait()
	for i, err := range errs {
		switch i % 50 {
		case 7:
			if !errors.Is(err, errWork) || !strings.Contains(err.Error(), fmt.Sprintf("call %d:", i)) {
				t.Errorf("call %d: err %v, want its work's error", i, err)
			}
		case 13:
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("call %d's work blew up", i)) {
				t.Errorf("call %d: err %v, want its work's panic as an error, classified as a panic in the function is", i, err)
			}
		case 21:
			if !errors.Is(err, errFinish) || !strings.Contains(err.Error(), fmt.Sprintf("call %d:", i)) {
				t.Errorf("call %d: err %v, want its finish's error", i, err)
			}
		default:
			if err != nil {
				t.Errorf("call %d: %v", i, err)
			}
		}
	}
	err := st.View(func(tx *Tx) error {
		for i := 1; i < n; i++ {
			f, err := tx.Setting(fmt.Sprintf("f%03d", i))
			if err != nil {
				return err
			}
			w, err := tx.Setting(fmt.Sprintf("w%03d", i))
			if err != nil {
				return err
			}
			failed := i%50 == 7 || i%50 == 13 || i%50 == 21
			want := strings.Repeat("x", i%7) + fmt.Sprint(i)
			switch {
			case failed && (f != nil || w != nil):
				t.Errorf("call %d failed but left f=%q w=%q", i, f, w)
			case !failed && (f == nil || string(w) != want):
				t.Errorf("call %d: f=%q w=%q, want w=%q", i, f, w, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if c := st.group.commits; c > 1+1+2*12 {
		t.Errorf("%d transactions for %d calls: no group commit", c, n)
	}
	if runtime.GOMAXPROCS(0) > 1 && busy.most.Load() < 2 {
		t.Errorf("at most %d jobs ran at once on %d cores: none side by side", busy.most.Load(), runtime.GOMAXPROCS(0))
	}
}

// Update runs deferred jobs before its commit, the finishes in the order of
// the Defer calls; a View, or a finish, runs job and finish at once; a
// failing job rolls back the whole transaction.
func TestUpdateDefer(t *testing.T) {
	st := openTest(t, t.TempDir())
	appendTo := func(tx *Tx, s string) error {
		v, err := tx.Setting("order")
		if err != nil {
			return err
		}
		return tx.PutSetting("order", append(v, s...))
	}
	err := st.Update(func(tx *Tx) error {
		for _, s := range []string{"a", "b", "c"} {
			if err := tx.Defer(textJob{text: s}, func(tx *Tx, made []byte) error {
				if err := appendTo(tx, string(made)); err != nil {
					return err
				}
				if s == "b" { // deferred from a finish: at once
					if err := tx.Defer(textJob{text: "B"}, func(tx *Tx, inner []byte) error { return appendTo(tx, string(inner)) }); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				return err
			}
		}
		return appendTo(tx, "0") // the function's own write comes before the finishes
	})
	if err != nil {
		t.Fatal(err)
	}
	errWork := errors.New("work failed")
	err = st.Update(func(tx *Tx) error {
		if err := tx.PutSetting("rolled", []byte{1}); err != nil {
			return err
		}
		return tx.Defer(textJob{fail: errWork}, func(tx *Tx, _ []byte) error { return tx.PutSetting("finished", []byte{1}) })
	})
	if !errors.Is(err, errWork) {
		t.Errorf("a failing work: Update returned %v", err)
	}
	err = st.View(func(tx *Tx) error {
		if v, _ := tx.Setting("order"); string(v) != "0abBc" {
			t.Errorf("order %q, want 0abBc", v)
		}
		for _, k := range []string{"rolled", "finished"} {
			if v, _ := tx.Setting(k); v != nil {
				t.Errorf("%s written by a transaction whose work failed", k)
			}
		}
		ran := false
		if err := tx.Defer(textJob{text: "v"}, func(_ *Tx, out []byte) error { ran = string(out) == "v"; return nil }); err != nil || !ran {
			t.Errorf("Defer in a View: err %v, ran %v", err, ran)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A panic in the job a function deferred after reading a game names that
// game, as a panic in the function itself would: the game service answers
// it with its apology for a damaged game instead of retrying the mail
// forever.
func TestDeferPanicNamesGame(t *testing.T) {
	st := openTest(t, t.TempDir())
	g := newGame(t, st, false)
	err := st.Batch(func(tx *Tx) error {
		if _, err := tx.Game(g.ID); err != nil {
			return err
		}
		return tx.Defer(textJob{panic: "template blew up"}, func(*Tx, []byte) error { return nil })
	})
	if DamagedGame(err) != g.ID || !strings.Contains(err.Error(), "template blew up") {
		t.Errorf("err %v: DamagedGame %d, want %d", err, DamagedGame(err), g.ID)
	}
}
