package mailfmt

import (
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	ours := []string{"games@bottlepost.example", "admin@bottlepost.example"}
	tests := []struct {
		name       string
		header     []string // From is a player's unless given
		body       string
		want       Noise
		wantReason string // a substring of the reason
	}{
		{"player", nil, "e4", NotNoise, ""},
		{"auto-submitted no", []string{"Auto-Submitted: no"}, "e4", NotNoise, ""},
		{"auto-submitted no with comment", []string{"Auto-Submitted: No (manual)"}, "e4", NotNoise, ""},
		{"precedence first-class", []string{"Precedence: first-class"}, "e4", NotNoise, ""},

		{"from ours", []string{"From: bottlepost <Games@BottlePost.example>"}, "", Loop, "from our own address Games@BottlePost.example"},
		{"from our token address", []string{"From: games+k7q2@bottlepost.example"}, "", Loop, "from our own address"},
		{"sender ours", []string{"Sender: admin@bottlepost.example"}, "", Loop, "sender is our own address"},
		{"return path ours", []string{"Return-Path: <games+x@bottlepost.example>"}, "", Loop, "return path"},
		{"x-loop", []string{"X-Loop: games@bottlepost.example"}, "", Loop, "X-Loop"},

		{"null return path", []string{"Return-Path: <>"}, "", Bounce, "null return path"},
		{"dsn", []string{`Content-Type: multipart/report; report-type=delivery-status; boundary="b"`}, "--b--", Bounce, "multipart/report (delivery-status)"},
		{"read receipt", []string{`Content-Type: multipart/report; report-type="disposition-notification"; boundary="b"`}, "--b--", Bounce, "disposition-notification"},
		{"exim failed recipients", []string{"X-Failed-Recipients: old@example.com"}, "", Bounce, "X-Failed-Recipients"},
		{"mailer-daemon", []string{"From: MAILER-DAEMON@mx.example.com (Mail Delivery System)"}, "", Bounce, "sender MAILER-DAEMON@mx.example.com"},
		{"postmaster", []string{"From: Postmaster <postmaster@example.com>"}, "", Bounce, "sender postmaster@example.com"},

		{"auto-replied", []string{"Auto-Submitted: auto-replied"}, "", AutoSubmitted, "Auto-Submitted: auto-replied"},
		{"auto-generated with parameter", []string{"Auto-Submitted: auto-generated; owner-email=x@example.com"}, "", AutoSubmitted, "auto-generated"},
		{"unknown auto-submitted value", []string{"Auto-Submitted: auto-notified"}, "", AutoSubmitted, "auto-notified"},
		{"x-autoreply", []string{"X-Autoreply: yes"}, "", AutoSubmitted, "X-Autoreply"},
		{"x-autorespond", []string{"X-Autorespond: vacation"}, "", AutoSubmitted, "X-Autorespond"},

		{"list-id", []string{"List-Id: Chess <chess.lists.example.org>"}, "", MailingList, "List-Id: Chess <chess.lists.example.org>"},
		{"list-unsubscribe", []string{"List-Unsubscribe: <https://example.com/u>"}, "", MailingList, "List-Unsubscribe"},

		{"precedence bulk", []string{"Precedence: bulk"}, "", Bulk, "Precedence: bulk"},
		{"precedence list", []string{"Precedence: LIST"}, "", Bulk, "Precedence: list"},
		{"precedence junk", []string{"Precedence: junk"}, "", Bulk, "Precedence: junk"},
		{"precedence auto_reply", []string{"Precedence: auto_reply"}, "", Bulk, "auto_reply"},

		{"loop wins over bounce", []string{"From: games@bottlepost.example", "Return-Path: <>"}, "", Loop, "from our own address"},
		{"bounce wins over auto-submitted", []string{"Return-Path: <>", "Auto-Submitted: auto-replied"}, "", Bounce, ""},
		{"list wins over precedence", []string{"Precedence: list", "List-Id: <l.example.org>"}, "", MailingList, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header := tt.header
			hasFrom := false
			for _, h := range header {
				hasFrom = hasFrom || strings.HasPrefix(h, "From:")
			}
			if !hasFrom {
				header = append([]string{"From: Player <player@example.org>"}, header...)
			}
			m := parseString(t, rawMail(header, tt.body))
			got, reason := Classify(m, ours)
			if got != tt.want {
				t.Errorf("Classify = %v (%q), want %v", got, reason, tt.want)
			}
			if (got == NotNoise) != (reason == "") {
				t.Errorf("reason %q for %v", reason, got)
			}
			if !strings.Contains(reason, tt.wantReason) {
				t.Errorf("reason %q, want it to contain %q", reason, tt.wantReason)
			}
		})
	}
}

func TestClassifyBuiltMessage(t *testing.T) {
	// A Message built by hand (zero Header) must not panic.
	if got, _ := Classify(&Message{}, []string{"games@bottlepost.example"}); got != NotNoise {
		t.Errorf("empty message: %v", got)
	}
	if got, _ := Classify(&Message{NullReturnPath: true}, nil); got != Bounce {
		t.Errorf("null return path: %v", got)
	}
}

func TestNoiseString(t *testing.T) {
	tests := []struct {
		n    Noise
		want string
	}{
		{NotNoise, "none"},
		{Loop, "loop"},
		{Bounce, "bounce"},
		{AutoSubmitted, "auto-submitted"},
		{MailingList, "mailing-list"},
		{Bulk, "bulk"},
		{Noise(42), "Noise(42)"},
	}
	for _, tt := range tests {
		if got := tt.n.String(); got != tt.want {
			t.Errorf("Noise(%d).String() = %q, want %q", int(tt.n), got, tt.want)
		}
	}
}

// TestClassifyAutoReplySubjects: an automatic reply sent without RFC 3834's
// fields (Outlook's out-of-office, many webmails' vacation notices) is told
// by its subject, in the usual languages; subjects a person writes are not
// (issue 35.1).
func TestClassifyAutoReplySubjects(t *testing.T) {
	tests := []struct {
		subject string
		noise   bool
	}{
		{"Out of office: bottlepost: reply to carry out your commands", true},
		{"Out of Office", true},
		{"OUT OF OFFICE - back on Monday", true},
		{"Automatic reply: Welcome to bottlepost", true},
		{"Auto: Welcome to bottlepost", true},
		{"AutoReply: [bp-2] your move", true},
		{"Auto-Reply: [bp-2]", true},
		{"  Out of office: leading blanks", true},
		{"Abwesenheitsnotiz: Welcome to bottlepost", true},
		{"Automatische Antwort: Welcome to bottlepost", true},
		{"Absence du bureau : Welcome to bottlepost", true},
		{"Réponse automatique : Welcome to bottlepost", true},
		{"RÉPONSE AUTOMATIQUE: Welcome", true},
		{"Respuesta automática: Welcome to bottlepost", true},
		{"Fuera de la oficina: Welcome", true},
		{"Automatisch antwoord: Welcome to bottlepost", true},
		{"Afwezigheidsbericht: Welcome", true},
		{"Risposta automatica: Welcome to bottlepost", true},
		{"Fuori sede: Welcome", true},
		{"Resposta automática: Welcome", true},
		{"Automatiskt svar: Welcome", true},

		{"Re: [bp-2] your move", false},
		{"Re: Out of office", false},
		{"Auto racing variants?", false},
		{"Automobile chess", false},
		{"Outing of officers", false},
		{"Absences", false},
		{"I was out of office, here is my move", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.subject, func(t *testing.T) {
			m := parseString(t, rawMail([]string{"From: Player <player@example.org>", "Subject: " + tt.subject}, "resign"))
			got, reason := Classify(m, []string{"games@bottlepost.example"})
			if want := map[bool]Noise{true: AutoSubmitted, false: NotNoise}[tt.noise]; got != want {
				t.Errorf("Classify(subject %q) = %v (%q), want %v", tt.subject, got, reason, want)
			}
			if tt.noise && !strings.Contains(reason, "subject") {
				t.Errorf("reason %q does not name the subject", reason)
			}
		})
	}
}
