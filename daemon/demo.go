package daemon

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/config"
)

// Demo plays a short game between two scripted players through a fresh
// daemon and its embedded hub (in a temporary data directory, on free
// loopback ports) and writes every mail they receive to w as it arrives.
func Demo(w io.Writer) error {
	dir, err := os.MkdirTemp("", "bottlepost-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg := config.Defaults()
	cfg.Service.DataDir = dir
	cfg.Hub.IMAPListen, cfg.Hub.SMTPListen = "127.0.0.1:0", "127.0.0.1:0"
	cfg.Web.Listen = "" // the demo plays by mail only
	cfg.IMAP.PollInterval = config.Duration(100 * time.Millisecond)
	if err := cfg.Validate(); err != nil {
		return err
	}
	d, err := New(cfg, Options{})
	if err != nil {
		return err
	}
	if err := d.Start(); err != nil {
		d.Close()
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done }()

	pw := cfg.Hub.Password.Value
	alice, bob := NewPlayer(d.Hub(), "alice", pw), NewPlayer(d.Hub(), "bob", pw)
	fmt.Fprintf(w, "bottlepost demo: %s and %s play a game of chess by mail through the embedded hub (IMAP %s, SMTP %s).\n\n",
		alice.Address, bob.Address, d.Hub().IMAPAddr(), d.Hub().SMTPAddr())
	step := func(p *Player, say, want string, send func() (string, error)) error {
		if say != "" {
			fmt.Fprintf(w, ">>> %s writes: %s\n\n", p.Address, say)
		}
		if _, err := send(); err != nil {
			return err
		}
		return nil
	}
	show := func(p *Player, want string) error {
		r, err := p.Await(want, 20*time.Second)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "<<< to %s — %s\n%s\n", p.Address, r.Msg.Subject, indent(r.Text()))
		return nil
	}
	script := []struct {
		p          *Player
		say        string
		to         string // "" replies to the player's last mail
		wantBy     *Player
		want       string
		alsoWantBy *Player
		alsoWant   string
	}{
		{alice, "hello", cfg.Service.Address, alice, "your personal address", nil, ""},
		{alice, "new chess vs bob@localhost as white", "", bob, "challenges you", alice, "Your challenge"},
		{bob, "accept", "", alice, "It is your move.", nil, ""},
		{alice, "f3", "", bob, "White played 1. f3.", nil, ""},
		{bob, "e5", "", alice, "Black played 1... e5.", nil, ""},
		{alice, "g4", "", bob, "White played 2. g4.", nil, ""},
		{bob, "Qh4#", "", alice, "Game over", bob, "Game over"},
	}
	for _, s := range script {
		send := func() (string, error) { return s.p.Reply(s.say) }
		if s.to != "" {
			send = func() (string, error) { return s.p.Send(Mail{To: s.to, Subject: "hello", Body: s.say}) }
		}
		if err := step(s.p, s.say, s.want, send); err != nil {
			return err
		}
		if s.alsoWantBy != nil {
			if err := show(s.alsoWantBy, s.alsoWant); err != nil {
				return err
			}
		}
		if err := show(s.wantBy, s.want); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "The game is over and archived. Run `bottlepost serve` to play for real.")
	return nil
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") + "\n"
}
