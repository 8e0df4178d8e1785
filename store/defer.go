package store

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Job is work a transaction's function hands to the commit (Tx.Defer): a value holding
// everything the work needs, whose Run makes bytes (a mail, say). Run is called on a
// goroutine of its own, beside the commit's other jobs and while the write transaction
// stays open: it must use only what the value holds, never the Tx, and nothing that another
// job or any transaction function may write.
type Job interface {
	Run() ([]byte, error)
}

// deferredJob is a job a transaction's function left to the commit (Tx.Defer).
type deferredJob struct {
	call   int    // the function that deferred it: its place in a Batch group
	game   uint64 // the game that function last read or wrote (Tx.game), for a panic
	job    Job
	finish func(*Tx, []byte) error
	out    []byte // what job made
	err    error  // job's
}

// Defer hands job to the transaction's commit, so that the CPU-heavy part of a write
// (composing a mail, say) runs side by side with other work instead of one after another
// on the one writer. The job runs after every function of the transaction (all of a Batch
// group) has run, at the same time as the other functions' jobs, outside the transaction's
// functions but while the write transaction is open: the writer is held until every job is
// done, only for less time than the jobs one after another would take. Then finish runs in
// the transaction with the bytes the job made, in the order of the Defer calls, before the
// commit; it may read and write as the function could (typically: queue what the job made).
// An error from either, or a panic in the job, fails the function that deferred them, as if
// it had returned the error: the transaction is rolled back, and in a Batch group that
// function runs again alone (Batch).
//
// In a View transaction, and in a finish, there is no commit to wait for: job and finish run
// at once, and Defer returns their error. Otherwise it returns nil.
func (tx *Tx) Defer(job Job, finish func(tx *Tx, out []byte) error) error {
	if !tx.tx.Writable() || tx.finishing {
		out, err := tx.s.runJob(job, tx.game)
		if err != nil {
			return err
		}
		return finish(tx, out)
	}
	tx.deferred = append(tx.deferred, &deferredJob{call: tx.call, game: tx.game, job: job, finish: finish})
	return nil
}

// runDeferred runs the transaction's deferred jobs side by side, at most GOMAXPROCS at a
// time, then their finishes in order. It returns the first failure in the order of the
// Defer calls and the function (Tx.call) that deferred it.
func (tx *Tx) runDeferred() (call int, err error) {
	ds := tx.deferred
	tx.deferred = nil
	if len(ds) == 0 {
		return 0, nil
	}
	var next atomic.Int64
	worker := func() { // takes the jobs in order until none is left
		for i := int(next.Add(1)) - 1; i < len(ds); i = int(next.Add(1)) - 1 {
			ds[i].out, ds[i].err = tx.s.runJob(ds[i].job, ds[i].game)
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
		if err := safeCall(func(tx *Tx) error { return d.finish(tx, d.out) }, tx); err != nil {
			return d.call, err
		}
	}
	return 0, nil
}

// runJob runs a deferred job, turning a panic into its error, as safeCall does for the
// function that deferred it (game is the game that function last touched): a bug in one
// function's job must not take down the writer, nor the process, and its mail is answered
// as a panic in the function itself would have it answered (a GameError, ErrCorrupt).
func (s *Store) runJob(job Job, game uint64) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, gameErr(game, fmt.Errorf("deferred work panicked (%v): %w", r, ErrCorrupt))
			s.log.Error("store: deferred work panicked", "err", err, "stack", string(debug.Stack()))
		}
	}()
	return job.Run()
}
