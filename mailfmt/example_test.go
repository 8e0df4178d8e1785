package mailfmt_test

import (
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/mailfmt"
)

// Reading a player's reply: parse it, drop noise, find the game and the
// command lines.
func ExampleParse() {
	raw := "From: Alice <alice@example.org>\r\n" +
		"To: games+k7q2m4x9@bottlepost.example\r\n" +
		"Subject: Re: [bp-42] Chess: alice@example.org v bob@example.net\r\n" +
		"Message-ID: <1@example.org>\r\n" +
		"\r\n" +
		"Nf3\r\n" +
		"\r\n" +
		"On Sunday, bottlepost wrote:\r\n" +
		"> It is your move.\r\n"
	m, err := mailfmt.Parse(strings.NewReader(raw), 1<<20)
	if err != nil {
		fmt.Println(err)
		return
	}
	if noise, _ := mailfmt.Classify(m, []string{"games@bottlepost.example"}); noise != mailfmt.NotNoise {
		fmt.Println("not answered:", noise)
		return
	}
	token, _ := mailfmt.PlusToken(m.To[0].Address, "games@bottlepost.example")
	game, _ := mailfmt.ParseTag(m.Subject)
	fmt.Println(m.From.Address, token, game, mailfmt.Lines(m.Body))
	// Output: alice@example.org k7q2m4x9 42 [Nf3]
}

// Writing a mail with a text part, an HTML alternative and an attachment.
func ExampleOutgoing_Bytes() {
	o := &mailfmt.Outgoing{
		From:      mail.Address{Name: "bottlepost", Address: "games@bottlepost.example"},
		To:        "alice@example.org",
		ReplyTo:   "games+k7q2m4x9@bottlepost.example",
		Subject:   mailfmt.FormatTag(42) + " game over: 1-0 · Chess v Zoë",
		MessageID: "m.1@bottlepost.example",
		Date:      time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		Text:      "Game over: 1-0.\n",
		HTML:      "<p>Game over: 1-0.</p>",
		Attachments: []mailfmt.Attachment{
			{Filename: "bp-42.pgn", ContentType: "application/vnd.chess-pgn", Data: []byte("1. e4 e5 1-0\n")},
		},
	}
	raw, err := o.Bytes()
	if err != nil {
		fmt.Println(err)
		return
	}
	head, _, _ := strings.Cut(string(raw), "\r\n\r\n")
	for _, line := range strings.Split(head, "\r\n") {
		if strings.HasPrefix(line, "Subject:") || strings.HasPrefix(line, "Content-Type:") {
			fmt.Println(line)
		}
	}
	// Output:
	// Subject: [bp-42] game over: 1-0 =?utf-8?q?=C2=B7_Chess_v_Zo=C3=AB?=
	// Content-Type: multipart/mixed; boundary="bp-m=_89ea0724b230b3f8dbe9522c"
}
