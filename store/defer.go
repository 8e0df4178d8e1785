package store

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// deferredWork is work a transaction's function left to the commit (Tx.Defer).
type deferredWork struct {
	call   int    // the function that deferred it: its place in a Batch group
	game   uint64 // the game that function last read or wrote (Tx.game), for a panic
	work   func() error
	finish func(*Tx) error
	err    error // work's
}

// Defer hands work to the transaction's commit, so that the CPU-heavy part of a write
// (composing a mail, say) runs side by side with other work instead of holding the one
// writer. work runs after every function of the transaction (all of a Batch group) has
// run, at the same time as the other functions' deferred work and outside the
// transaction: it must not use the Tx, and must share no unguarded state with other
// work or with the functions. Then finish runs in the transaction, in the order of the
// Defer calls, before the commit; it may read and write as the function could (typically:
// queue what work made). An error from either, or a panic in work, fails the function
// that deferred them, as if it had returned the error: the transaction is rolled back,
// and in a Batch group that function runs again alone (Batch).
//
// In a View transaction, and in a finish, there is no commit to wait for: work and
// finish run at once, and Defer returns their error. Otherwise it returns nil.
func (tx *Tx) Defer(work func() error, finish func(*Tx) error) error {
	if !tx.tx.Writable() || tx.finishing {
		if err := tx.s.runWork(work, tx.game); err != nil {
			return err
		}
		return finish(tx)
	}
	tx.deferred = append(tx.deferred, &deferredWork{call: tx.call, game: tx.game, work: work, finish: finish})
	return nil
}

// runDeferred runs the transaction's deferred work: the works side by side, at most
// GOMAXPROCS at a time, then the finishes in order. It returns the first failure in the
// order of the Defer calls and the function (Tx.call) that deferred it.
func (tx *Tx) runDeferred() (call int, err error) {
	ds := tx.deferred
	tx.deferred = nil
	if len(ds) == 0 {
		return 0, nil
	}
	var next atomic.Int64
	worker := func() { // takes the works in order until none is left
		for i := int(next.Add(1)) - 1; i < len(ds); i = int(next.Add(1)) - 1 {
			ds[i].err = tx.s.runWork(ds[i].work, ds[i].game)
		}
	}
	if n := min(runtime.GOMAXPROCS(0), len(ds)); n <= 1 {
		worker() // on this goroutine
	} else {
		var wg sync.WaitGroup
		for range n {
			wg.Go(worker)
		}
		wg.Wait()
	}
	for _, d := range ds {
		if d.err != nil {
			return d.call, d.err
		}
	}
	tx.finishing = true
	defer func() { tx.finishing = false }()
	for _, d := range ds {
		if err := safeCall(d.finish, tx); err != nil {
			return d.call, err
		}
	}
	return 0, nil
}

// runWork runs a deferred work, turning a panic into its error, as safeCall does for the
// function that deferred it (game is the game that function last touched): a bug in one
// function's work must not take down the writer, nor the process, and its mail is answered
// as a panic in the function itself would have it answered (a GameError, ErrCorrupt).
func (s *Store) runWork(work func() error, game uint64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = gameErr(game, fmt.Errorf("deferred work panicked (%v): %w", r, ErrCorrupt))
			s.log.Error("store: deferred work panicked", "err", err, "stack", string(debug.Stack()))
		}
	}()
	return work()
}
