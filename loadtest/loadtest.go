// Package loadtest drives a running bottlepost daemon through real mail, as
// thousands of players would, and says what it withstood: moves per second,
// the latency of the replies, the daemon's memory, and — after the daemon
// was killed at random moments, and junk was mixed into the stream — whether
// every move was applied exactly once and every reply arrived, and (with
// games ended by resignation, Config.Resign) whether the ratings the
// daemon stored equal their recomputation from its archive.
//
// The daemon runs as a separate process (Config.Spawn), configured for an
// external mail server: the embedded mail hub of this package, which outlives
// the daemon's deaths. Players submit moves over SMTP to the hub; the daemon
// reads them over IMAP and sends its replies over SMTP back to the hub, where
// they are timed. Each game is played by this package with the rules engine
// on its side: random legal moves, each sent only when the previous one has
// been answered, so that what the daemon stored (each game's log of moves
// and the referee's full state) can be compared with what was played
// (CheckStore). It is the engine of `bottlepost bench` and of the
// crash-loop tests.
package loadtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/bottlepost/bottlepost/mailer"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// Config says what load to put on the daemon.
type Config struct {
	// Games is how many games are played at once (default 100).
	Games int
	// Moves is how many moves are played in all (default 10 per game).
	Moves int
	// Rate is how many moves per second are offered at most; 0 sends each
	// game's next move as soon as the last one is answered.
	Rate float64
	// Variant is the variant played (default chess); a variant with hidden
	// moves cannot be checked move by move and is refused.
	Variant string
	// Seed makes the games' moves repeatable.
	Seed uint64
	// Dir is the working directory: the daemon's configuration, data and log.
	Dir string
	// Spawn makes the command that runs the daemon with a configuration
	// file: `bottlepost serve --config PATH`.
	Spawn func(configPath string) *exec.Cmd
	// Kills is how many times the daemon is killed with SIGKILL, at random
	// moments while moves are under way, and started again. A game that ends
	// before the last kill is followed by a new one of the same two players
	// (set up by mail, as the first), so the kills always fall on a daemon under load; a run that
	// could not do them all fails.
	Kills int
	// Junk is how many junk, oversized, malformed and spoofed mails are
	// mixed into the stream while the moves are played.
	Junk int
	// Resign, when positive, ends each game after that many moves by the
	// resignation of the side to move (a game that ends on the board
	// earlier ends there). With Kills, the two players of a game that ended
	// play the next one together, so that their ratings go on from game to
	// game.
	Resign int
	// CheckRatings, if set, is the last part of the final check: it
	// recomputes the ratings from the archive of the stopped daemon's data
	// directory and returns how many rated games it replayed and every
	// difference from the stored ratings (bottlepost ratings --rebuild;
	// the load test does not import the service, so the command supplies
	// it).
	CheckRatings func(dataDir string) (games int, differences []string, err error)
	// Senders is how many SMTP connections submit the players' mail (default 8).
	Senders int
	// Timeout is the longest wait for one reply (default one minute).
	Timeout time.Duration
	// Progress, if set, gets a line now and then.
	Progress io.Writer
	// IMAP, if set, is a real IMAP server (Dovecot, say) holding the
	// service's mailbox: the daemon reads it there, and the players' mail
	// to the service is delivered into it with APPEND (or over LMTP, see
	// IMAPServer.LMTP), as a mail server's local delivery would. The replies still go out through the hub's SMTP.
	IMAP *IMAPServer
}

// IMAPServer is an IMAP server and the account of the service's mailbox.
type IMAPServer struct {
	Addr               string // host:port, loopback (the daemon speaks plain IMAP to it)
	Username, Password string
	// LMTP, if set, is the same server's LMTP listener (host:port): the
	// players' mail to the service is then delivered there, as Postfix
	// hands mail to Dovecot in docs/deploy, instead of with APPEND. The
	// server must deliver the service's address, plus-addresses included,
	// into Username's INBOX.
	LMTP string
}

// Report is what a run measured.
type Report struct {
	Games, Moves   int
	Setup, Elapsed time.Duration // creating the games; playing the moves
	MovesPerSecond float64
	// Latency of a move: from its submission to the moment both replies
	// (the mover's receipt and the opponent's update) were in the hub.
	P50, P90, P99, Max time.Duration
	// Daemon memory: its largest resident set seen, and its Go heap peak
	// as the kernel reports it (VmHWM) just before the end.
	RSSMax, HWM int64
	// CPU time (user + system) the daemon and this load generator (the
	// players and the hub) spent during the moves, per move: what the
	// machine's cores were shared out between. Without kills only (a
	// killed daemon's time is lost with it).
	DaemonCPUPerMove, GeneratorCPUPerMove time.Duration
	Kills                                 int
	// Replies delivered more than once (same Message-ID, same recipient):
	// the outbox's documented retry after a kill.
	Duplicates int
	// Junk mails sent and the answers they got (welcomes, rate-limited).
	Junk, JunkAnswers int
	// JunkAnswersByKind counts the answers per kind of junk ("junk0x" is
	// plain junk … "junk7x" a spoofed token; see junkMail).
	JunkAnswersByKind map[string]int
	// Checked is how many games' stored moves and positions were compared
	// with the ones played (all of them), and found equal.
	Checked int
	// Ended is how many games ended (by resignation or on the board);
	// RatedGames how many rated games the ratings' recomputation replayed
	// (Config.CheckRatings), its result equal to the stored ratings.
	Ended, RatedGames int
	// Played is every game set up, as its players played it.
	Played []Played
}

// Played is one game as its players played it: the daemon's id for it and
// the moves, in order, as they were sent (the variant's canonical notation).
// The game starts from the variant's standard position.
type Played struct {
	ID    uint64
	Moves []string
}

// String is the report as people read it.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "games %d, moves %d in %v (setup %v): %.0f moves/s\n", r.Games, r.Moves, r.Elapsed.Round(time.Millisecond), r.Setup.Round(time.Millisecond), r.MovesPerSecond)
	fmt.Fprintf(&b, "latency (submission to both replies delivered): p50 %v  p90 %v  p99 %v  max %v\n",
		r.P50.Round(time.Millisecond), r.P90.Round(time.Millisecond), r.P99.Round(time.Millisecond), r.Max.Round(time.Millisecond))
	fmt.Fprintf(&b, "daemon memory: resident max %.1f MiB, high-water mark %.1f MiB\n", float64(r.RSSMax)/(1<<20), float64(r.HWM)/(1<<20))
	if r.DaemonCPUPerMove > 0 {
		fmt.Fprintf(&b, "CPU per move: daemon %v, load generator and hub %v\n", r.DaemonCPUPerMove.Round(time.Microsecond), r.GeneratorCPUPerMove.Round(time.Microsecond))
	}
	if r.Kills > 0 {
		fmt.Fprintf(&b, "daemon killed with SIGKILL %d times; replies delivered twice: %d\n", r.Kills, r.Duplicates)
	}
	if r.Junk > 0 {
		fmt.Fprintf(&b, "junk mails %d, answers to them %d\n", r.Junk, r.JunkAnswers)
	}
	fmt.Fprintf(&b, "every game's stored moves and position equal those played: %d of %d games checked\n", r.Checked, r.Games)
	if r.Ended > 0 || r.RatedGames > 0 {
		fmt.Fprintf(&b, "games ended: %d; the stored ratings equal their recomputation from the archive: %d rated games replayed\n", r.Ended, r.RatedGames)
	}
	return b.String()
}

const (
	domain   = "localhost"
	service  = "games@localhost"
	password = "bench-password"
)

// run is one load run's shared state.
type run struct {
	cfg    Config
	hub    *mailer.Hub
	router *router
	subs   *submitter
	d      *daemonProc
	v      rules.Variant
	budget atomic.Int64 // moves still to hand out
	played atomic.Int64 // moves answered
	// killsDone is set once the last kill is done: games that end before it
	// are followed by new ones.
	killsDone atomic.Bool
	// gamesMu guards games, every game set up (more than Games with kills).
	gamesMu sync.Mutex
	games   []*game
	lat     []time.Duration
	latMu   sync.Mutex
	// pace hands out the right to send a move (Rate); nil when unpaced.
	pace <-chan struct{}
}

// Run plays the load and checks the outcome. An error means the run could
// not be carried out or a check failed; the report says how far it got.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Games <= 0 {
		cfg.Games = 100
	}
	if cfg.Moves <= 0 {
		cfg.Moves = 10 * cfg.Games
	}
	if cfg.Variant == "" {
		cfg.Variant = "chess"
	}
	if cfg.Senders <= 0 {
		cfg.Senders = 8
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Minute
	}
	if cfg.Spawn == nil || cfg.Dir == "" {
		return nil, errors.New("loadtest: Spawn and Dir are required")
	}
	if cfg.Progress == nil {
		cfg.Progress = io.Discard
	}
	v, err := variants.Lookup(cfg.Variant)
	if err != nil {
		return nil, fmt.Errorf("loadtest: %w", err)
	}
	if v.Hidden() {
		return nil, fmt.Errorf("loadtest: %s has hidden moves; the load test plays open variants", cfg.Variant)
	}
	r := &run{cfg: cfg, v: v, router: newRouter()}
	r.budget.Store(int64(cfg.Moves))
	if cfg.Kills > 0 {
		// Moves go on until the last kill: Moves is then the least played.
		r.budget.Store(1 << 62)
	}
	rep := &Report{Games: cfg.Games}

	r.hub = mailer.NewHub(domain, password, 1<<20, nil)
	r.hub.Keep = func(rcpt string) bool { return strings.HasPrefix(strings.ToLower(rcpt), "games") }
	r.hub.Delivered = r.router.deliver
	if err := r.hub.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		return nil, err
	}
	defer r.hub.Close()
	if r.subs, err = newSubmitter(r.hub.SMTPAddr(), cfg.Senders, cfg.IMAP); err != nil {
		return nil, err
	}
	defer r.subs.close()

	cfgPath, err := writeConfig(cfg.Dir, r.hub, cfg.IMAP)
	if err != nil {
		return nil, err
	}
	r.d = &daemonProc{spawn: func() *exec.Cmd { return cfg.Spawn(cfgPath) }, log: filepath.Join(cfg.Dir, "daemon.log")}
	if err := r.d.start(); err != nil {
		return nil, err
	}
	defer r.d.kill()
	stopSampler := r.d.sample()

	// Set-up: every game created and accepted through the service, by mail.
	start := time.Now()
	games := make([]*game, cfg.Games)
	if err := r.each(ctx, len(games), 64, func(i int) error {
		g, err := r.setUp(i)
		games[i] = g
		return err
	}); err != nil {
		return rep, err
	}
	rep.Setup = time.Since(start)
	fmt.Fprintf(cfg.Progress, "%d games set up in %v\n", cfg.Games, rep.Setup.Round(time.Millisecond))

	// The moves, with the kills and the junk beside them.
	playCtx, stopPlay := context.WithCancel(ctx)
	defer stopPlay()
	if cfg.Rate > 0 {
		r.pace = pacer(playCtx, cfg.Rate)
	}
	var side sync.WaitGroup
	killErr := make(chan error, 1)
	side.Go(func() { killErr <- r.killLoop(playCtx, &rep.Kills) })
	junkSent := make(chan int, 1)
	side.Go(func() { junkSent <- r.junk(playCtx) })
	start = time.Now()
	daemonCPU0, ownCPU0 := r.d.cpu(), ownCPU()
	r.games = games
	err = r.each(ctx, len(games), len(games), func(i int) error { return r.playOn(ctx, games[i]) })
	rep.Elapsed = time.Since(start)
	daemonCPU, ownCPUUsed := r.d.cpu()-daemonCPU0, ownCPU()-ownCPU0
	stopPlay()
	side.Wait()
	rep.Junk = <-junkSent
	if kerr := <-killErr; err == nil {
		err = kerr
	}
	games = r.allGames()
	rep.Games = len(games)
	for _, g := range games {
		rep.Played = append(rep.Played, Played{ID: g.id, Moves: slices.Clone(g.moves)})
		if g.over() {
			rep.Ended++
		}
	}
	if err == nil && rep.Kills < cfg.Kills {
		err = fmt.Errorf("loadtest: the daemon was killed %d times of the %d asked", rep.Kills, cfg.Kills)
	}
	rep.Moves = int(r.played.Load())
	rep.MovesPerSecond = float64(rep.Moves) / rep.Elapsed.Seconds()
	if rep.Moves > 0 && cfg.Kills == 0 {
		rep.DaemonCPUPerMove = daemonCPU / time.Duration(rep.Moves)
		rep.GeneratorCPUPerMove = ownCPUUsed / time.Duration(rep.Moves)
	}
	slices.Sort(r.lat)
	rep.P50, rep.P90, rep.P99 = pct(r.lat, 50), pct(r.lat, 90), pct(r.lat, 99)
	if len(r.lat) > 0 {
		rep.Max = r.lat[len(r.lat)-1]
	}
	rep.RSSMax = stopSampler()
	rep.HWM = r.d.hwm()
	if err != nil {
		return rep, err
	}

	// Let the junk's answers and any retried mail come in, then stop the
	// daemon the way an operator would, and compare.
	time.Sleep(500 * time.Millisecond)
	if err := r.d.stop(); err != nil {
		return rep, err
	}
	rep.Duplicates = r.router.duplicates()
	// Every reply a player got was one the players waited for: anything
	// left is a reply nobody expected (a move handled twice answers "not
	// your turn"), which the game-by-game waits alone could mistake for news.
	if left := r.router.leftover("w", "b"); len(left) > 0 {
		return rep, fmt.Errorf("loadtest: %d mails to the players that answer nothing they sent, e.g. to %s: %q", len(left), left[0].to, left[0].subject)
	}
	var kinds []string
	for k := range junkKinds {
		kinds = append(kinds, fmt.Sprintf("junk%dx", k))
	}
	rep.JunkAnswersByKind = r.router.countTo(kinds...)
	for _, n := range rep.JunkAnswersByKind {
		rep.JunkAnswers += n
	}
	rep.Checked, err = CheckStore(filepath.Join(cfg.Dir, "data"), cfg.Variant, rep.Played)
	if err != nil || cfg.CheckRatings == nil {
		return rep, err
	}
	rated, diffs, err := cfg.CheckRatings(filepath.Join(cfg.Dir, "data"))
	if err != nil {
		return rep, fmt.Errorf("loadtest: the ratings' recomputation: %w", err)
	}
	if len(diffs) > 0 {
		return rep, fmt.Errorf("loadtest: %d differences between the stored ratings and their recomputation from %d rated games:\n%s",
			len(diffs), rated, strings.Join(diffs[:min(5, len(diffs))], "\n"))
	}
	rep.RatedGames = rated
	return rep, nil
}

// playOn plays g, and while kills remain to be done a new game of the same
// two players after each one that ends (rematch), so that the daemon is
// under load at every kill.
func (r *run) playOn(ctx context.Context, g *game) error {
	for {
		if err := r.play(g); err != nil {
			return err
		}
		if r.cfg.Kills == 0 || r.killsDone.Load() || ctx.Err() != nil || !g.over() {
			return nil
		}
		next, err := r.rematch(g)
		if err != nil {
			return err
		}
		r.gamesMu.Lock()
		r.games = append(r.games, next)
		r.gamesMu.Unlock()
		g = next
	}
}

// allGames is every game set up so far.
func (r *run) allGames() []*game {
	r.gamesMu.Lock()
	defer r.gamesMu.Unlock()
	return append([]*game(nil), r.games...)
}

// each runs f(0..n-1) with at most par at once and returns the first error.
func (r *run) each(ctx context.Context, n, par int, f func(i int) error) error {
	var wg sync.WaitGroup
	sem := make(chan struct{}, par)
	var first error
	var mu sync.Mutex
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := f(i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// pct is the p-th percentile of sorted durations.
func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, (len(d)*p+99)/100-1)]
}

// pacer ticks rate times a second, with a small burst allowance.
func pacer(ctx context.Context, rate float64) <-chan struct{} {
	ch := make(chan struct{}, max(1, int(rate/20)))
	go func() {
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		owed := 0.0
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			owed += rate / 50
			for ; owed >= 1; owed-- {
				select {
				case ch <- struct{}{}:
				default:
				}
			}
		}
	}()
	return ch
}

// writeConfig writes the daemon's configuration: the hub as its external
// IMAP and SMTP server (sent to with BDAT, as docs/deploy has it for
// Postfix), rate limits out of the way of players who move every second (and
// challenge each other again after every game), a
// short outbox retry so a restart resends promptly.
func writeConfig(dir string, hub *mailer.Hub, imapServer *IMAPServer) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("loadtest: %w", err)
	}
	host, iport, _ := strings.Cut(hub.IMAPAddr(), ":")
	_, sport, _ := strings.Cut(hub.SMTPAddr(), ":")
	imapUser, imapPass := service, password
	if imapServer != nil {
		host, iport, _ = strings.Cut(imapServer.Addr, ":")
		imapUser, imapPass = imapServer.Username, imapServer.Password
	}
	text := fmt.Sprintf(`[service]
address = %q
data_dir = %q
log_level = "warn"
default_time = "30d"

[imap]
host = %q
port = %s
security = "plain"
username = %q
password = %q
poll_interval = "2s"

[smtp]
host = %q
port = %s
security = "plain"
username = %q
password = %q
# The hub takes BDAT safely, as Postfix does: docs/deploy's config turns it on too.
chunking = true

[web]
listen = ""

[limits]
replies_per_hour = 100000
challenges_per_hour = 10000
challenges_per_day = 10000
# Every game's players are new addresses: their welcomes and invitations are
# mails to strangers, thousands of them.
strangers_per_day = 1000000
outbox_retry_backoff = "1s"
outbox_retry_ceiling = "5s"
`, service, filepath.Join(dir, "data"), host, iport, imapUser, imapPass, "127.0.0.1", sport, service, password)
	path := filepath.Join(dir, "bottlepost.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return "", fmt.Errorf("loadtest: %w", err)
	}
	return path, nil
}

// CheckStore opens the store a daemon left in its data directory (read-only,
// so the daemon must have stopped) and compares each game with what was
// played: the moves on the game's log, one by one, and the referee's full
// state (the rules engine's serialisation of the whole position, with what
// it keeps of the moves that led there) with that of the moves played,
// replayed from the standard start. A move lost, applied twice or stored
// other than sent shows. It returns how many games were equal, and an
// error naming the games that were not (the first five, each with the
// first move that differs, or the two boards).
func CheckStore(dataDir, variant string, games []Played) (checked int, err error) {
	v, err := variants.Lookup(variant)
	if err != nil {
		return 0, fmt.Errorf("loadtest: %w", err)
	}
	st, err := store.Open(filepath.Join(dataDir, "bottlepost.db"), store.Options{KeyFile: filepath.Join(dataDir, "bottlepost.key"), ReadOnly: true})
	if err != nil {
		return 0, fmt.Errorf("loadtest: open the daemon's store: %w", err)
	}
	defer st.Close()
	var problems []string
	err = st.View(func(tx *store.Tx) error {
		for _, g := range games {
			problem, err := compareGame(tx, v, g)
			if err != nil {
				return err
			}
			if problem != "" {
				problems = append(problems, fmt.Sprintf("game %d: %s", g.ID, problem))
				continue
			}
			checked++
		}
		return nil
	})
	if err != nil {
		return checked, err
	}
	if len(problems) > 0 {
		return checked, fmt.Errorf("loadtest: %d games differ from what was played:\n%s", len(problems), strings.Join(problems[:min(5, len(problems))], "\n"))
	}
	return checked, nil
}

// compareGame compares one stored game with the one played and says how
// they differ ("" when they do not). An error is a store that cannot be
// read.
func compareGame(tx *store.Tx, v rules.Variant, g Played) (string, error) {
	sg, err := tx.Game(g.ID)
	if err != nil {
		return "", fmt.Errorf("loadtest: game %d: %w", g.ID, err)
	}
	log, err := tx.Log(g.ID)
	if err != nil {
		return "", fmt.Errorf("loadtest: game %d: %w", g.ID, err)
	}
	var stored []string
	for _, rec := range log {
		if rec.Kind == store.KindMove {
			stored = append(stored, rec.Text)
		}
	}
	for i := range max(len(stored), len(g.Moves)) {
		switch {
		case i >= len(stored):
			return fmt.Sprintf("%d moves stored, %d played: the first missing is %s %s", len(stored), len(g.Moves), rules.MoveLabel(i), g.Moves[i]), nil
		case i >= len(g.Moves):
			return fmt.Sprintf("%d moves stored, %d played: the first extra is %s %s", len(stored), len(g.Moves), rules.MoveLabel(i), stored[i]), nil
		case stored[i] != g.Moves[i]:
			return fmt.Sprintf("move %s stored as %q, played %q", rules.MoveLabel(i), stored[i], g.Moves[i]), nil
		}
	}
	played, err := replay(v, g.Moves)
	if err != nil {
		return err.Error(), nil
	}
	s, err := v.Unmarshal(sg.State)
	if err != nil {
		return fmt.Sprintf("the stored state cannot be read: %v", err), nil
	}
	got, err := s.MarshalBinary()
	if err != nil {
		return "", fmt.Errorf("loadtest: game %d: %w", g.ID, err)
	}
	want, err := played.MarshalBinary()
	if err != nil {
		return "", fmt.Errorf("loadtest: game %d: %w", g.ID, err)
	}
	gotBoard, wantBoard := s.View(rules.ViewReferee).ASCII(), played.View(rules.ViewReferee).ASCII()
	if !bytes.Equal(got, want) || gotBoard != wantBoard {
		return fmt.Sprintf("the stored position (%d plies) is not the one played (%d plies)\nstored:\n%s\nplayed:\n%s", s.Ply(), played.Ply(), gotBoard, wantBoard), nil
	}
	return "", nil
}

// replay plays moves from the variant's standard start.
func replay(v rules.Variant, moves []string) (rules.State, error) {
	s, err := v.New(rules.Options{})
	if err != nil {
		return nil, err
	}
	for i, text := range moves {
		m, err := s.Parse(text)
		if err == nil {
			s, _, err = s.Apply(m)
		}
		if err != nil {
			return nil, fmt.Errorf("the move played %s %s cannot be replayed: %v", rules.MoveLabel(i), text, err)
		}
	}
	return s, nil
}

// daemonProc is the daemon's process, started again after each kill.
type daemonProc struct {
	spawn func() *exec.Cmd
	log   string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited <-chan error // cmd.Wait's result, once it has exited
}

func (p *daemonProc) start() error {
	f, err := os.OpenFile(p.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("loadtest: daemon log: %w", err)
	}
	cmd := p.spawn()
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("loadtest: start the daemon: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); f.Close() }()
	p.mu.Lock()
	p.cmd, p.exited = cmd, exited
	p.mu.Unlock()
	return nil
}

func (p *daemonProc) current() (*exec.Cmd, <-chan error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd, p.exited
}

// crash kills the daemon with SIGKILL and waits until it is gone.
func (p *daemonProc) crash() {
	cmd, exited := p.current()
	cmd.Process.Kill()
	<-exited
}

// kill is the last resort on the way out.
func (p *daemonProc) kill() {
	if cmd, _ := p.current(); cmd != nil {
		cmd.Process.Kill()
	}
}

// stop ends the daemon with SIGTERM, as an operator would, and checks it
// stopped cleanly within a minute.
func (p *daemonProc) stop() error {
	cmd, exited := p.current()
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			return fmt.Errorf("loadtest: the daemon stopped with %v (see %s)", err, p.log)
		}
		return nil
	case <-time.After(time.Minute):
		return fmt.Errorf("loadtest: the daemon did not stop within a minute of SIGTERM (see %s)", p.log)
	}
}

// procStatus reads a field in kB of /proc/PID/status, in bytes (0 when
// unavailable).
func procStatus(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
			return kb << 10
		}
	}
	return 0
}

// sample watches the daemon's resident set until the returned function is
// called, which returns the largest seen.
func (p *daemonProc) sample() func() int64 {
	var peak atomic.Int64
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if cmd, _ := p.current(); cmd != nil {
				if rss := procStatus(cmd.Process.Pid, "VmRSS"); rss > peak.Load() {
					peak.Store(rss)
				}
			}
		}
	}()
	return func() int64 { close(done); return peak.Load() }
}

// cpu is the CPU time the running daemon has used (user + system), from
// /proc/PID/stat; 0 when unavailable.
func (p *daemonProc) cpu() time.Duration {
	cmd, _ := p.current()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command name (which may hold spaces) in parentheses.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * time.Second / clockTicks
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat times
// (100 on every Linux architecture Go supports).
const clockTicks = 100

// ownCPU is the CPU time this process has used.
func ownCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// hwm is the running daemon's resident high-water mark.
func (p *daemonProc) hwm() int64 {
	cmd, _ := p.current()
	return procStatus(cmd.Process.Pid, "VmHWM")
}

// killLoop kills the daemon Kills times at random moments while moves are
// played, starting it again each time.
func (r *run) killLoop(ctx context.Context, n *int) error {
	if r.cfg.Kills == 0 {
		return nil
	}
	rnd := rand.New(rand.NewPCG(r.cfg.Seed, 7))
	for *n < r.cfg.Kills {
		wait := time.Duration(50+rnd.IntN(450)) * time.Millisecond
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		r.d.crash()
		*n++
		if err := r.d.start(); err != nil {
			return err
		}
		if *n%10 == 0 {
			fmt.Fprintf(r.cfg.Progress, "%d kills, %d moves played\n", *n, r.played.Load())
		}
	}
	// The last kill is done: the moves stop once the least asked for are played.
	r.killsDone.Store(true)
	for r.played.Load() < int64(r.cfg.Moves) && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	r.budget.Store(0)
	return nil
}
