package mailer

import (
	"errors"
	"sync"

	"github.com/bottlepost/bottlepost/mailfmt"
)

// errNotHandled marks a message the pipeline did not hand over because the
// connection broke first.
var errNotHandled = errors.New("mailer: not handled")

// pipeline hands messages to a fixed set of workers as they are added.
// Mail of one sender goes to one worker and is handled in the order added
// (a player's "move" and then "resign" must not swap); different senders'
// mail goes to different workers, so that the game service can commit many
// messages together. After each message handled without error, done(id)
// records it; when done fails, nothing more is handed over (what is left
// gets errNotHandled). When a sender's message fails, the sender is
// blocked: its later mail gets errNotHandled (it stays unseen) until the
// failed one, offered again as a retry, goes through. At most
// pipelineBytes of mail wait in the pipeline at once (at least one message).
//
// A sender is its mail's mailfmt.FromKey: the address the game service
// will see, read with the same parser.
//
// Single producer: add, block and finish are called by one goroutine only
// (the session's fetch loop); assign and next are its alone and unlocked.
// The workers share the rest under mu. After finish, the pipeline is done.
type pipeline struct {
	handle Handler
	done   func(id uint32) error
	queues []chan pipeItem
	assign map[string]int // sender key → worker; the producer's only
	next   int            // the worker of the next new sender; the producer's only
	wg     sync.WaitGroup

	mu       sync.Mutex
	room     *sync.Cond // signalled when bytes leave the pipeline
	inflight int        // bytes of mail added and not yet handled
	broken   error
	blocked  map[string]bool   // senders whose earlier mail waits for a retry
	keys     map[uint32]string // each message's sender key
	results  map[uint32]error
}

type pipeItem struct {
	id    uint32
	raw   []byte
	key   string
	retry bool // the message failed before: it may pass its sender's block
}

// pipelineBytes bounds the mail waiting in a pipeline.
const pipelineBytes = 16 << 20

func newPipeline(workers int, handle Handler, done func(id uint32) error) *pipeline {
	p := &pipeline{handle: handle, done: done, queues: make([]chan pipeItem, max(workers, 1)),
		assign: map[string]int{}, blocked: map[string]bool{}, keys: map[uint32]string{}, results: map[uint32]error{}}
	p.room = sync.NewCond(&p.mu)
	for i := range p.queues {
		q := make(chan pipeItem, 8)
		p.queues[i] = q
		p.wg.Go(func() { p.work(q) })
	}
	return p
}

// block holds back a sender's mail (see pipeline).
func (p *pipeline) block(key string) {
	p.mu.Lock()
	p.blocked[key] = true
	p.mu.Unlock()
}

func (p *pipeline) work(q <-chan pipeItem) {
	for it := range q {
		p.mu.Lock()
		skip := p.broken != nil || (p.blocked[it.key] && !it.retry)
		p.mu.Unlock()
		err := errNotHandled
		if !skip {
			err = p.handle(it.raw)
		}
		p.mu.Lock()
		p.results[it.id] = err
		p.inflight -= len(it.raw)
		p.room.Broadcast()
		switch {
		case skip:
		case err != nil:
			p.blocked[it.key] = true
		case it.retry:
			delete(p.blocked, it.key)
		}
		p.mu.Unlock()
		if skip || err != nil {
			continue
		}
		if err := p.done(it.id); err != nil {
			p.mu.Lock()
			if p.broken == nil {
				p.broken = err
			}
			p.mu.Unlock()
		}
	}
}

func (p *pipeline) isBroken() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.broken != nil
}

// add hands a message over; it waits while its worker's queue is full or
// the pipeline holds pipelineBytes. retry marks a message that failed before.
func (p *pipeline) add(id uint32, raw []byte, retry bool) {
	k := mailfmt.FromKey(raw)
	w, ok := p.assign[k]
	if !ok {
		w = p.next % len(p.queues)
		p.next++
		p.assign[k] = w
	}
	p.mu.Lock()
	for p.inflight > 0 && p.inflight+len(raw) > pipelineBytes {
		p.room.Wait()
	}
	p.inflight += len(raw)
	p.keys[id] = k
	p.mu.Unlock()
	p.queues[w] <- pipeItem{id: id, raw: raw, key: k, retry: retry}
}

// finish waits for everything added and returns each message's result and
// the error that broke the hand-over, if any.
func (p *pipeline) finish() (map[uint32]error, error) {
	for _, q := range p.queues {
		close(q)
	}
	p.wg.Wait()
	return p.results, p.broken
}
