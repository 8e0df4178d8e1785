package mailfmt

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLines(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		// Cleaning.
		{"empty", "", nil},
		{"trim and collapse", "  Nf3   \n\n\t draw   offered \n", []string{"Nf3", "draw offered"}},
		{"case kept", "Bxc3\nbxc3\nRESIGN\n", []string{"Bxc3", "bxc3", "RESIGN"}},
		{"unicode spaces collapse", "Nf3\u00a0\u202f+\u2003x\n", []string{"Nf3 + x"}},
		{"invisible characters removed", "\ufeffe4\u200b\n\u200d\n", []string{"e4"}},
		{"control characters become spaces", "e4\x00e5\x1b\n", []string{"e4 e5"}},
		{"bytes that are not UTF-8 replaced", "e4\x80\n\xff\n", []string{"e4\uFFFD", "\uFFFD"}},
		{"crlf and cr", "e4\r\ne5\rNf3", []string{"e4", "e5", "Nf3"}},

		// Quotes and attributions.
		{"quoted lines dropped", "e4\n> your move\n>> old\n  > indented\n", []string{"e4"}},
		{"bottom posting", "On Mon, 3 Mar 2025, bottlepost wrote:\n> Your move.\n\nNf3\n", []string{"Nf3"}},
		{"interleaved answers", "Alice wrote:\n> question one\nanswer one\n> question two\nanswer two\n", []string{"answer one", "answer two"}},
		{"attribution cuts when nothing is quoted", "e4\n\nOn Mon, Mar 3, 2025 at 10:40 AM bottlepost wrote:\n\nYour move.\nd5\n", []string{"e4"}},
		{"attribution wrapped over two lines", "Bxc3\n\nOn Mon, Mar 3, 2025 at 10:40 AM bottlepost <games+x@bottlepost.example>\nwrote:\n\n> Your move.\n", []string{"Bxc3"}},
		{"attribution wrapped over three lines", "Nf3\nAm So., 1. Jan. 2023 um 17:22 Uhr\nschrieb John Doe <\nnoreply@example.org>:\n\n> text\n", []string{"Nf3"}},
		{"attribution wrapped, nothing quoted", "Nf3\nOn Mon, Mar 3, 2025 at 10:40 AM bottlepost\nwrote:\nYour move.\n", []string{"Nf3"}},
		{"bare quoter kept when nothing is quoted", "Magnus wrote:\ne4 was best\n", []string{"Magnus wrote:", "e4 was best"}},
		{"german", "Sxe5\n\nAm 03.03.2025 um 10:15 schrieb bottlepost <games@bottlepost.example>:\n> Zug 14\n", []string{"Sxe5"}},
		{"german without quotes", "Sxe5\nAm 03.03.25 um 10:15 schrieb bottlepost:\nZug 14\n", []string{"Sxe5"}},
		{"french with no-break space", "d5\nLe lun. 3 mars 2025 à 18:02, bottlepost <g@b.example> a écrit\u00a0:\n> Coup 3\n", []string{"d5"}},
		{"french without quotes", "d5\nLe 03/03/2025 à 18:02, bottlepost a écrit :\nCoup 3\n", []string{"d5"}},
		{"spanish", "d5\nEl lun, 3 mar 2025 a las 18:02, bottlepost (<g@b.example>) escribió:\nJugada\n", []string{"d5"}},
		{"italian", "d5\nIl giorno lun 3 mar 2025 alle ore 18:02 bottlepost ha scritto:\nMossa\n", []string{"d5"}},
		{"dutch", "d5\nOp ma 3 mrt 2025 om 18:02 schreef bottlepost <g@b.example>:\nZet\n", []string{"d5"}},
		{"portuguese", "d5\nEm seg., 3 de mar. de 2025 às 18:02, bottlepost escreveu:\nLance\n", []string{"d5"}},
		{"swedish", "d5\nDen mån 3 mars 2025 kl 18:02 skrev bottlepost <g@b.example>:\nDrag\n", []string{"d5"}},
		{"polish", "d5\nW dniu pon., 3.03.2025 o 18:02 bottlepost <g@b.example> napisał(a):\nRuch\n", []string{"d5"}},
		{"iphone quotes its attribution", "O-O\n\n> On Mar 3, 2025, at 12:05 PM, bottlepost wrote:\n> \n> Your move\n", []string{"O-O"}},
		{"a move line starting with On is not an attribution", "On move 12 I resign\n", []string{"On move 12 I resign"}},

		// Signatures.
		{"signature separator", "e4\n-- \nAlice\nGöteborg\n", []string{"e4"}},
		{"separator without the space", "e4\n--\nAlice\n", []string{"e4"}},
		{"quoted separator does not cut", "> -- \n> sig\ne4\n", []string{"e4"}},
		{"longer dashes are not a separator", "e4\n---\ne5\n", []string{"e4", "---", "e5"}},
		{"sign-off dropped", "Qxd8+\n\nRegards,\nBjörn\n", []string{"Qxd8+"}},
		{"german sign-off", "Nxe5\nViele Grüße\nLukas\n", []string{"Nxe5"}},
		{"sign-off alone", "e4\nThanks!\n", []string{"e4"}},
		{"sign-off followed by long text kept", "e4\nThanks,\nthis is a much longer line that is certainly not a name\n", []string{"e4", "Thanks,", "this is a much longer line that is certainly not a name"}},
		{"sign-off too far from the end kept", "Thanks,\na\nb\nc\nd\n", []string{"Thanks,", "a", "b", "c", "d"}},

		// Separators and header blocks.
		{"original message", "Qxd8+\n\n-----Original Message-----\nFrom: x\nd4\n", []string{"Qxd8+"}},
		{"samsung original message", "Rxf7\n-------- Original message --------\nFrom: x\n", []string{"Rxf7"}},
		{"german original message", "Nf3\n-----Ursprüngliche Nachricht-----\nVon: x\n", []string{"Nf3"}},
		{"french original message", "Nf3\n-----Message d'origine-----\nDe : x\n", []string{"Nf3"}},
		{"gmail forward", "look at this\n---------- Forwarded message ---------\nFrom: x\ne4\n", []string{"look at this"}},
		{"apple forward", "look\n\nBegin forwarded message:\n\n> From: x\n", []string{"look"}},
		{"outlook header block with rule", "e5\n\n________________________________\nFrom: bottlepost <g@b.example>\nSent: Monday, March 3, 2025 8:02 AM\nTo: Nadia\nSubject: [bp-44]\n\nYour move\n", []string{"e5"}},
		{"bold header block", "e5\n*From:* bottlepost\n*Sent:* Monday\n*To:* Nadia\n", []string{"e5"}},
		{"wrapped from line", "e5\nFrom: blinux-list-bounces@example.com <x@example.com> On\nBehalf Of Someone\nSent: Wednesday, 28 July 2021 17:45\nTo: list\nSubject: Re: x\n", []string{"e5"}},
		{"german header block", "Nf3\nVon: bottlepost <g@b.example>\nGesendet: Montag, 3. März 2025 10:15\nAn: Lukas\nBetreff: [bp-8]\n", []string{"Nf3"}},
		{"german block starting with the date", "Nf3\n\nGesendet: Montag, 03. März 2025 um 10:15 Uhr\nVon: \"bottlepost\" <g@b.example>\nAn: x@example.de\nBetreff: [bp-8]\n", []string{"Nf3"}},
		{"french header block", "Nf3\nDe\u00a0: bottlepost\nEnvoyé\u00a0: lundi 3 mars 2025 10:15\nÀ\u00a0: Camille\nObjet\u00a0: [bp-17]\n", []string{"Nf3"}},
		{"lone from line is not a block", "From: the start\ne4\n", []string{"From: the start", "e4"}},
		{"rule without header kept", "e4\n_____\ne5\n", []string{"e4", "_____", "e5"}},
		{"trailing rule kept", "e4\n-----\n", []string{"e4", "-----"}},

		// Mobile footers.
		{"iphone", "O-O\n\nSent from my iPhone\n\n> quote\n", []string{"O-O"}},
		{"galaxy", "Rxf7\nSent from my Galaxy\n", []string{"Rxf7"}},
		{"outlook mobile", "e5\n\nGet Outlook for Android<https://aka.ms/AAb9ysg>\n", []string{"e5"}},
		{"german iphone", "Nf3\nVon meinem iPhone gesendet\n", []string{"Nf3"}},
		{"german samsung", "Nf3\nVon meinem Samsung Galaxy Smartphone gesendet.\n", []string{"Nf3"}},
		{"french iphone", "Nf3\nEnvoyé de mon iPhone\n", []string{"Nf3"}},
		{"spanish", "Nf3\nEnviado desde mi iPhone\n", []string{"Nf3"}},
		{"italian", "Nf3\nInviato da iPhone\n", []string{"Nf3"}},
		{"dutch", "Nf3\nVerzonden vanaf mijn iPhone\n", []string{"Nf3"}},
		{"proton", "Nf3\nSent with Proton Mail secure email.\n", []string{"Nf3"}},
		{"sent from in a sentence is kept", "I sent from my phone earlier: e4\n", []string{"I sent from my phone earlier: e4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Lines(tt.body)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Lines(%q)\n got %q\nwant %q", tt.body, got, tt.want)
			}
		})
	}
}

// TestLinesHTML runs Lines on the reduction of HTML written the way mail
// clients write replies.
func TestLinesHTML(t *testing.T) {
	tests := []struct {
		name string
		html string
		want []string
	}{
		{
			name: "gmail",
			html: `<div dir="ltr">Bxc3</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, Mar 3, 2025 at 10:40` + "\u202f" +
				`AM bottlepost &lt;<a href="mailto:g@b.example">g@b.example</a>&gt; wrote:<br></div><blockquote class="gmail_quote">Your move.<br></blockquote></div>`,
			want: []string{"Bxc3"},
		},
		{
			name: "gmail with signature",
			html: `<div dir="ltr">Nf3<br clear="all"><div><br></div><span class="gmail_signature_prefix">-- </span><br><div dir="ltr" class="gmail_signature">Marta<br>Kraków</div></div>`,
			want: []string{"Nf3"},
		},
		{
			name: "thunderbird",
			html: `<p>Nf3</p><div class="moz-cite-prefix">On 3/3/25 10:15, bottlepost wrote:<br></div><blockquote type="cite" cite="mid:x@b.example">Your move.</blockquote><pre class="moz-signature" cols="72">-- ` + "\n" + `Alice</pre>`,
			want: []string{"Nf3"},
		},
		{
			name: "outlook desktop",
			html: `<div class="WordSection1"><p class="MsoNormal">Qxd8+<o:p></o:p></p><p class="MsoNormal"><o:p>&nbsp;</o:p></p><div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal"><b>From:</b> bottlepost &lt;g@b.example&gt; <br><b>Sent:</b> Monday, March 3, 2025 9:15 AM<br><b>To:</b> Björn<br><b>Subject:</b> [bp-5]<o:p></o:p></p></div></div><p class="MsoNormal">Your move, White.</p></div>`,
			want: []string{"Qxd8+"},
		},
		{
			name: "apple mail",
			html: `<html><body dir="auto"><div dir="ltr">O-O</div><div dir="ltr"><br><div id="AppleMailSignature">Sent from my iPhone</div><div dir="ltr"><br><blockquote type="cite">On Mar 3, 2025, at 12:05 PM, bottlepost wrote:<br><br></blockquote></div><blockquote type="cite"><div dir="ltr">Your move</div></blockquote></div></body></html>`,
			want: []string{"O-O"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Lines(htmlToText(tt.html))
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q\ntext:\n%s", got, tt.want, htmlToText(tt.html))
			}
		})
	}
}

// TestLinesInvariants checks properties every result must have.
func TestLinesInvariants(t *testing.T) {
	bodies := []string{
		"e4\n\n\n  e5  \n",
		"> a\nb\n-- \nc",
		strings.Repeat("Nf3 \u00a0\t", 100) + "\n" + strings.Repeat("x\n", 100),
	}
	for _, b := range bodies {
		checkLines(t, b, Lines(b))
	}
}

// checkLines fails t unless lines is a valid result of Lines(body).
func checkLines(t *testing.T, body string, lines []string) {
	t.Helper()
	total := 0
	for _, l := range lines {
		total += len(l)
		if l == "" || strings.TrimSpace(l) != l || strings.Contains(l, "  ") || strings.ContainsAny(l, "\n\r") || !utf8.ValidString(l) {
			t.Errorf("Lines(%q): bad line %q", clip(body, 100), l)
		}
	}
	// Only bytes that are not UTF-8 may grow (to U+FFFD, three bytes).
	limit := len(body)
	if !utf8.ValidString(body) {
		limit = 3 * len(body)
	}
	if total > limit {
		t.Errorf("Lines(%q): %d bytes out of %d in", clip(body, 100), total, len(body))
	}
}

// TestLargeInputs runs the text functions on large pathological inputs;
// a rule that went quadratic would make it time out (256 K each; 32 K with
// -short, where a quadratic rule still takes seconds).
func TestLargeInputs(t *testing.T) {
	n := 1 << 18
	if testing.Short() {
		n = 1 << 15
	}
	inputs := map[string]string{
		"attribution starts": strings.Repeat("On x\n", n/5),
		"wrapped german":     strings.Repeat("Am x\nschrieb y\n", n/16),
		"one long line":      strings.Repeat("On ", n/3),
		"header lines":       strings.Repeat("From: x\nSent: y\n", n/16),
		"quoters":            strings.Repeat("a wrote:\n", n/9),
		"closings":           strings.Repeat("Thanks,\n", n/8),
		"unicode spaces":     strings.Repeat(" \u00a0x", n/4),
		"flowed quotes":      strings.Repeat("> a \n>> b \n", n/12),
		"nested html":        strings.Repeat("<blockquote><div>", n/17) + "x",
		"stray end tags":     strings.Repeat("<div>", maxHTMLStack) + strings.Repeat("</span>", n/7),
		"quoted breaks":      strings.Repeat("<blockquote>", 10) + strings.Repeat("x<br>", n/5),
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			checkLines(t, in, Lines(in))
			h := htmlToText(in)
			checkLines(t, h, Lines(h))
			f := decodeFlowed(in, true)
			checkLines(t, f, Lines(f))
		})
	}
}
