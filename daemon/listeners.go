package daemon

import (
	"errors"
	"net"
	"slices"
	"sync"
	"time"
)

// Listeners keeps the service's TCP listeners (the embedded hub's IMAP and
// SMTP ports, the web view's) open across a reload (issue 35.6). serve
// stopped the daemon, which closed its ports, and started one with the new
// configuration, which bound them again: in the gap a local user bound the
// IMAP port, took players' plaintext logins, and serve exited when it
// could not bind its own port back. With Listeners (Options.Listeners) a
// daemon takes the listener of an address the previous daemon listened on,
// open all along; connections made while no daemon serves it wait in the
// kernel's queue and are accepted by the next. Only an address that
// changed is bound anew, and the old one closed once the new daemon has
// started (Release).
//
// A daemon takes a listener with Listen and gives it back by closing what
// it got; the socket itself is closed only by Release or Close.
type Listeners struct {
	mu   sync.Mutex
	kept map[string][]*keptListener // by network and address as configured
}

// NewListeners is an empty keeper.
func NewListeners() *Listeners { return &Listeners{kept: map[string][]*keptListener{}} }

// keptListener is one open socket: a goroutine accepts on it for as long as
// it is open and hands each connection to whoever holds it now.
type keptListener struct {
	ln    net.Listener
	conns chan net.Conn
	shut  chan struct{} // closed with the socket (shutdown)
	done  chan struct{} // closed when the accepting goroutine has ended
	err   error         // why it ended; read after done
	inUse bool          // a daemon holds it (guarded by Listeners.mu)
}

// Listen is net.Listen for a daemon: a listener kept for network and
// address that no one holds, if there is one, else a new one, kept. (Two
// of one address are two sockets only with port 0, which binds any free
// port.)
func (l *Listeners) Listen(network, addr string) (net.Listener, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := network + " " + addr
	var k *keptListener
	for _, free := range l.kept[key] {
		if !free.inUse {
			k = free
			break
		}
	}
	if k == nil {
		ln, err := net.Listen(network, addr)
		if err != nil {
			return nil, err
		}
		k = &keptListener{ln: ln, conns: make(chan net.Conn), shut: make(chan struct{}), done: make(chan struct{})}
		go k.accept()
		l.kept[key] = append(l.kept[key], k)
	}
	k.inUse = true
	return &heldListener{k: k, closed: make(chan struct{}), release: func() {
		l.mu.Lock()
		k.inUse = false
		l.mu.Unlock()
	}}, nil
}

// accept takes connections until the socket is closed.
func (k *keptListener) accept() {
	defer close(k.done)
	for {
		c, err := k.ln.Accept()
		if err != nil {
			select {
			case <-k.shut:
				k.err = net.ErrClosed
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				k.err = err
				return
			}
			time.Sleep(50 * time.Millisecond) // out of file descriptors, or the like: try again
			continue
		}
		select {
		case k.conns <- c:
		case <-k.shut:
			c.Close()
			return
		}
	}
}

// shutdown closes the socket; a connection accepted and not yet taken is
// closed too.
func (k *keptListener) shutdown() {
	close(k.shut)
	k.ln.Close()
}

// Release closes the listeners no daemon holds: those of addresses the
// configuration no longer names. serve calls it once a new daemon has
// started.
func (l *Listeners) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for key, ks := range l.kept {
		l.kept[key] = slices.DeleteFunc(ks, func(k *keptListener) bool {
			if !k.inUse {
				k.shutdown()
			}
			return !k.inUse
		})
		if len(l.kept[key]) == 0 {
			delete(l.kept, key)
		}
	}
}

// Close closes every listener kept.
func (l *Listeners) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for key, ks := range l.kept {
		for _, k := range ks {
			k.shutdown()
		}
		delete(l.kept, key)
	}
}

// heldListener is a daemon's hold on a kept listener: closing it gives the
// listener back, open.
type heldListener struct {
	k       *keptListener
	once    sync.Once
	closed  chan struct{}
	release func()
}

func (h *heldListener) Accept() (net.Conn, error) {
	select {
	case <-h.closed:
		return nil, net.ErrClosed
	default:
	}
	select {
	case c := <-h.k.conns:
		return c, nil
	case <-h.closed:
		return nil, net.ErrClosed
	case <-h.k.done:
		return nil, h.k.err
	}
}

func (h *heldListener) Close() error {
	h.once.Do(func() {
		close(h.closed)
		h.release()
	})
	return nil
}

func (h *heldListener) Addr() net.Addr { return h.k.ln.Addr() }
