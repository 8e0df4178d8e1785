package mailer

import (
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/internal/dovecottest"
)

// TestIMAPSourceFindsTheServerBackSoon: a server stopped long enough for
// the reconnection backoff to reach its ceiling (30 s by default) is found
// again within 2 s of its return, not up to the ceiling later: while
// nothing accepts connections on its port the source probes it with a
// bare TCP connection every ProbeEvery (1 s by default), and reconnects as
// soon as one is accepted. The servers are real and are stopped and
// started again on the same port: the embedded hub (closed, and a new one
// started), and the private Dovecot (SIGTERM, and started again). The
// rows with the defaults take 20–25 s each and are left out with -short;
// the first row keeps the same proportions at a tenth of the times.
// Before, the source came back 13.7 s after the server in the second
// row, 1.44 s in the first (up to MaxBackoff, 30 s, in the worst case).
func TestIMAPSourceFindsTheServerBackSoon(t *testing.T) {
	tests := []struct {
		name    string
		dovecot bool
		scale   time.Duration // the source's times, from their defaults: 1 s → 30 s, probe 1 s
		down    time.Duration // the outage: long enough for the backoff to reach 16 s × scale
		within  time.Duration
		long    bool
	}{
		{"the hub, times a tenth of the defaults", false, 10, 1600 * time.Millisecond, 600 * time.Millisecond, false},
		{"the hub, the defaults", false, 1, 16 * time.Second, 2 * time.Second, true},
		{"Dovecot, the defaults", true, 1, 16 * time.Second, 2 * time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.long && testing.Short() {
				t.Skipf("waits out an outage of %v; the full run has it", tt.down)
			}
			var (
				addr, user, pass string
				stop, restart    func()
			)
			if tt.dovecot {
				srv := dovecottest.StartServer(t, dovecottest.Options{})
				addr, user, pass = srv.Addr, "games", dovecottest.Password
				stop, restart = func() { srv.Stop(t) }, func() { srv.Restart(t) }
			} else {
				h := startTestHub(t, nil)
				addr, user, pass = h.IMAPAddr(), testUser+"@example.org", testPass
				stop = func() { h.Close() }
				restart = func() {
					h = NewHub("example.org", testPass, 1<<20, nil)
					if err := h.Start(addr, "127.0.0.1:0"); err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { h.Close() })
				}
			}
			src, logs := hubSource(t, addr, func(c *IMAPConfig) {
				c.Username, c.Password = user, pass
				c.MinBackoff, c.MaxBackoff, c.ProbeEvery = 0, 0, 0 // the defaults
				if tt.scale > 1 {
					c.MinBackoff, c.MaxBackoff, c.ProbeEvery = time.Second/tt.scale, 30*time.Second/tt.scale, time.Second/tt.scale
				}
			})
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("the source's log:\n%s", logs)
				}
			})
			runSource(t, src, newRecorder().handle)
			connected := func() int { return strings.Count(logs.String(), "imap connected") }
			eventually(t, 10*time.Second, "connected", func() bool { return connected() == 1 })
			stop()
			time.Sleep(tt.down)
			if !strings.Contains(logs.String(), "imap connection lost") {
				t.Fatalf("the source did not see its connection go during an outage of %v: the server was not really down", tt.down)
			}
			restart()
			back := time.Now()
			eventually(t, 35*time.Second, "connected again", func() bool { return connected() == 2 })
			took := time.Since(back)
			t.Logf("down %v: connected again %v after the server's return", tt.down, took.Round(time.Millisecond))
			if took > tt.within {
				t.Errorf("connected again %v after the server's return, want within %v", took.Round(time.Millisecond), tt.within)
			}
			if n := strings.Count(logs.String(), "imap connection lost"); n > 12 {
				t.Errorf("%d attempts logged during an outage of %v: the probes are not logged, the sessions tried only when the port answers", n, tt.down)
			}
		})
	}
}
