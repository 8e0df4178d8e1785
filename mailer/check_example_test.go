package mailer_test

import (
	"fmt"
	"time"

	"github.com/bottlepost/bottlepost/mailer"
	"github.com/bottlepost/bottlepost/mailer/smtpclient"
)

// CheckMail against the embedded hub (plain IMAP and SMTP on loopback):
// one report per step; the last proves plus-address delivery.
func ExampleCheckMail() {
	hub := mailer.NewHub("club.example", "secret", 1<<20, nil)
	if err := hub.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		fmt.Println(err)
		return
	}
	defer hub.Close()
	ok := mailer.CheckMail(mailer.CheckConfig{
		IMAP:    mailer.IMAPConfig{Addr: hub.IMAPAddr(), Security: "plain", Username: "games", Password: "secret", Processed: "processed"},
		SMTP:    smtpclient.Config{Addr: hub.SMTPAddr(), Security: "plain", Username: "games", Password: "secret"},
		Address: "games@club.example",
		Wait:    10 * time.Second,
	}, func(s mailer.CheckStep) { fmt.Println(s.Name, s.OK) })
	fmt.Println("all passed:", ok)
	// Output:
	// imap connect true
	// imap login true
	// imap mailbox true
	// imap idle true
	// imap processed folder true
	// smtp session true
	// plus-addressing true
	// all passed: true
}
