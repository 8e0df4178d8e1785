package daemon

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/config"
)

// BenchmarkMailRoundTrip measures moves through the whole mail path: a
// player submits a move over SMTP to the hub, the daemon picks it up over
// IMAP (IDLE), handles it, and the receipt goes back out over SMTP into the
// player's mailbox. It reports moves per second with `conc` moves in flight
// and the latency from the move's arrival in the service's mailbox to the
// receipt's arrival in the player's (p50, p99).
func BenchmarkMailRoundTrip(b *testing.B) {
	for _, conc := range []int{1, 8} {
		b.Run(fmt.Sprintf("inflight=%d", conc), func(b *testing.B) { benchRoundTrip(b, conc, 0) })
	}
}

// BenchmarkMailRoundTripUnderWebLoad is BenchmarkMailRoundTrip with 100
// web clients asking for game pages as fast as they are answered, all the
// while (each its own keep-alive connection to the daemon's web view): the
// mail figures beside those of BenchmarkMailRoundTrip show what the web
// view costs mail handling. It also reports the pages served per second.
func BenchmarkMailRoundTripUnderWebLoad(b *testing.B) {
	b.Run("inflight=8,web=100", func(b *testing.B) { benchRoundTrip(b, 8, 100) })
}

// webLoad has clients fetch the pages of games 1 to games, round and
// round, until stop is closed; it returns the count of pages served.
func webLoad(b *testing.B, addr string, clients, games int, stop chan struct{}) func() int64 {
	var served atomic.Int64
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}, Timeout: time.Minute}
			for k := i; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := client.Get(fmt.Sprintf("http://%s/games/%d", addr, k%games+1))
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("web view: %s", resp.Status)
					return
				}
				served.Add(1)
			}
		})
	}
	return func() int64 { close(stop); wg.Wait(); return served.Load() }
}

func benchRoundTrip(b *testing.B, conc, webClients int) {
	// The web clients are many visitors, all on 127.0.0.1: as behind a
	// reverse proxy, the per-client limits make room for them all.
	r := startDaemon(b, func(c *config.Config) {
		c.Web.ConnectionsPerClient, c.Web.RequestsPerClient = 2*webClients+1, 2*webClients+1
	})
	hub := r.d.Hub()
	var mu sync.Mutex
	arrived := map[string]time.Time{} // move Message-ID → arrival at the service
	var lat []time.Duration
	hub.Delivered = func(rcpts []string, msg []byte) {
		now := time.Now()
		m, err := mail.ReadMessage(bytes.NewReader(msg))
		if err != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if strings.HasPrefix(rcpts[0], "games") {
			arrived[strings.Trim(m.Header.Get("Message-Id"), "<>")] = now
			return
		}
		if t, ok := arrived[strings.Trim(m.Header.Get("In-Reply-To"), "<>")]; ok && strings.Contains(m.Header.Get("Subject"), "[bp-") {
			lat = append(lat, now.Sub(t))
		}
	}
	pw := r.cfg.Hub.Password.Value
	// conc independent games; white moves a knight out and back, black too:
	// no capture, no pawn move, and repetition is avoided by a long cycle.
	type pair struct{ w, bl *Player }
	pairs := make([]pair, conc)
	for i := range pairs {
		w, bl := NewPlayer(hub, fmt.Sprintf("w%d", i), pw), NewPlayer(hub, fmt.Sprintf("b%d", i), pw)
		if _, err := w.Send(Mail{To: "games@localhost", Subject: "hi", Body: "hi"}); err != nil {
			b.Fatal(err)
		}
		if _, err := w.Await("personal address", wait); err != nil {
			b.Fatal(err)
		}
		w.Reply("new chess vs " + bl.Address + " as white time 30d")
		if _, err := bl.Await("challenges you", wait); err != nil {
			b.Fatal(err)
		}
		bl.Reply("accept")
		if _, err := w.Await("It is your move", wait); err != nil {
			b.Fatal(err)
		}
		pairs[i] = pair{w, bl}
	}
	var stopWeb func() int64
	if webClients > 0 {
		if r.d.WebAddr() == "" {
			b.Fatal("the daemon's web view is off")
		}
		stopWeb = webLoad(b, r.d.WebAddr(), webClients, conc, make(chan struct{}))
	}
	cycle := []string{"Nf3", "Nf6", "Nc3", "Nc6", "Nb1", "Nb8", "Ng1", "Ng8", "Nh3", "Nh6", "Na3", "Na6", "Nb1", "Nb8", "Ng1", "Ng8"}
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	per := (b.N + conc - 1) / conc
	for _, p := range pairs {
		wg.Go(func() {
			for k := 0; k < per; k++ {
				mover := p.w
				if k%2 == 1 {
					mover = p.bl
				}
				move := cycle[k%len(cycle)]
				if _, err := mover.Reply(move); err != nil {
					b.Error(err)
					return
				}
				if _, err := mover.Await("Your move "+move+" was accepted", wait); err != nil {
					b.Error(err)
					return
				}
				if k%len(cycle) == len(cycle)-1 {
					return // a game's cycle is done (a second lap would repeat positions)
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if stopWeb != nil {
		b.ReportMetric(float64(stopWeb())/elapsed.Seconds(), "pages/s")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(lat) == 0 {
		b.Fatal("no receipts timed")
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "moves/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(0, "ns/op")
}
