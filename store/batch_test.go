package store

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Batch under many concurrent callers: every call that succeeds is
// committed exactly once, a failing call gets its own error and leaves no
// write, a panicking call becomes an error, and the calls beside them are
// committed all the same. Far fewer transactions than calls are committed
// (the group commit at work): counted with bbolt's own statistics.
func TestBatchGroupCommit(t *testing.T) {
	st := openTest(t, t.TempDir())
	errBad := errors.New("bad call")
	const n = 400
	var runs atomic.Int64
	// The first call holds its transaction open until all the others wait
	// in the queue, so the test knows they can be committed together.
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
			return tx.PutSetting("k000", []byte{0})
		})
	})
	for q, leading := queued(); q != 0 || !leading; q, leading = queued() { // the first is under way
		runtime.Gosched()
	}
	for i := 1; i < n; i++ {
		wg.Go(func() {
			errs[i] = st.Batch(func(tx *Tx) error {
				runs.Add(1)
				if err := tx.PutSetting(fmt.Sprintf("k%03d", i), []byte{byte(i)}); err != nil {
					return err
				}
				switch i % 50 {
				case 7:
					return fmt.Errorf("call %d: %w", i, errBad)
				case 13:
					panic(fmt.Sprintf("call %d blew up", i))
				}
				return nil
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
			if !errors.Is(err, errBad) || !strings.Contains(err.Error(), fmt.Sprintf("call %d:", i)) {
				t.Errorf("call %d: err %v, want its own error", i, err)
			}
		case 13:
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("call %d blew up", i)) {
				t.Errorf("call %d: err %v, want its panic as an error", i, err)
			}
		default:
			if err != nil {
				t.Errorf("call %d: %v", i, err)
			}
		}
	}
	err := st.View(func(tx *Tx) error {
		for i := range n {
			v, err := tx.Setting(fmt.Sprintf("k%03d", i))
			if err != nil {
				return err
			}
			failed := i%50 == 7 || i%50 == 13
			if failed != (v == nil) {
				t.Errorf("k%03d = %v after a call that failed=%v", i, v, failed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// One transaction for the first call, then the 399 others together;
	// each of the 16 failures costs a rollback and a run alone.
	if c := st.group.commits; c > 1+1+2*16 {
		t.Errorf("%d transactions for %d calls: no group commit", c, n)
	}
	if runs.Load() < n-1 {
		t.Errorf("%d runs for %d calls", runs.Load(), n)
	}
}

// A lone call is committed at once, and calls made one after another each
// see the writes of the one before.
func TestBatchSequential(t *testing.T) {
	st := openTest(t, t.TempDir())
	for i := range 20 {
		err := st.Batch(func(tx *Tx) error {
			v, err := tx.Setting("n")
			if err != nil {
				return err
			}
			if len(v) != i {
				return fmt.Errorf("call %d saw %d bytes", i, len(v))
			}
			return tx.PutSetting("n", append(v, 'x'))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
