package game

import (
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// help answers help, help VARIANT and help COMMAND, in the sender's
// language (the commands themselves stay English: players type them so).
// The subject names the command, which is the same in every language.
func (h *handling) help(c Command) error {
	d := h.draft(h.from, nil, "help")
	d.subject = "bottlepost: help"
	if c.Variant == string(VerbRatings) {
		d.variantHelp, d.subject = d.tr(ratingsHelp, 95), "bottlepost: help ratings"
		return nil
	}
	if c.Variant == string(VerbTournaments) || c.Variant == string(VerbTournament) {
		d.variantHelp, d.subject = d.tr(tournamentHelp), "bottlepost: help tournaments"
		return nil
	}
	if text, ok := commandHelp[Verb(c.Variant)]; ok {
		d.variantHelp, d.subject = text.In(d.lang), "bottlepost: help "+c.Variant
		return nil
	}
	if c.Variant != "" {
		v, err := variants.Lookup(c.Variant)
		if err != nil {
			return userf("unknown variant %q (known: %s)", strings.ToLower(strings.TrimSpace(c.Variant)), strings.Join(variants.IDs, ", "))
		}
		d.variantHelp = variantHelpIn(v, d.lang)
		d.subject = "bottlepost: help " + v.Name()
	}
	return nil
}

// variantHelpIn is a variant's summary (Variant.Help, the answer to help
// VARIANT and part of an invitation) in a language: each variant package
// declares its summary a message (lang.Keys), so the catalogs hold it.
func variantHelpIn(v interface{ Help() string }, l lang.Lang) string {
	return l.Word(v.Help())
}

// commandHelp is what help COMMAND says of the commands between
// opponents (issue 33), each a message.
var commandHelp = map[Verb]lang.Text{
	VerbSay: lang.Msg(`say TEXT

Passes TEXT to your opponent: with your move (below its news, as
"Alice says:"), or in a mail of its own when no move goes with it, also
when the move of the same mail was refused. Several say lines of a mail
are joined, one line each. Write from the game's address (reply to its
mail) or from your personal address with the game's tag in the subject.
At most 1000 characters a mail (a longer text is cut, and you are told)
and 10 mails with words a day per game. Observers, the web pages and the
PGN records never show them; a referee's audit lists them. An opponent
may turn them off (messages off): you are told once.
`),
	VerbMessages: lang.Msg(`messages off | messages on

messages off: your opponents' words (say …) no longer reach you; each
who writes some is told once that they were not passed on. messages on:
they reach you again (the words sent meanwhile are not delivered later).
`),
	VerbTakeback: lang.Msg(`takeback | takeback accept | takeback decline

takeback asks your opponent to let you take back your last move, while
they have not answered it. They reply takeback accept (the position
returns to before your move, and you move again) or takeback decline; a
move of theirs declines it too. Both sides' pending conditional lines
are dropped when a takeback is accepted. At most 3 takebacks a game and
side. The record keeps the move and the takeback, each a record of its
own: bottlepost verify replays them, and the PGN shows the move taken
back as a comment. Seachess has no takebacks.
`),
	VerbAddress: lang.Msg(`address NEW

Moves your account — games, ratings, settings, vacations — to the
address NEW. Send it from your current address; a confirmation goes to
NEW, and a reply to it from NEW within 3 days moves the account. Your
games go on from the new address (reply to their mails as before); your
old address is told, and mail from it no longer acts on your games. An
address that is another account's cannot be taken; at most one change
every 7 days.
`),
	VerbBoard: lang.Msg(`board [GAME] | board format diagram | board format list | board format both

board sends the board of your game as you may see it. board format sets
how every mail with a board draws it for you: diagram (the default) is
the drawn board, letters in the text part and a table in the HTML part;
list gives the pieces in words instead, one line per side (White: King
g1; Queen d1; Rooks a1, f1; ...), for screen readers; both gives the
drawn board and the list below it. A Seachess list shows your own hidden
pieces, marked, and nothing of your opponent's.
`),
	VerbNotation: lang.Msg(`notation iccf | notation algebraic

notation iccf shows the moves of your chess mails in ICCF numeric
notation too, after the algebraic: "White played 12. Nf3 (7163).", "Your
move e4 (5254) was accepted." and the last moves. The records and PGN
files stay algebraic. ICCF notation exists for chess only. Anyone may
write moves in it: 5254 for e2-e4, castling as the king's move (5171),
a fifth digit for a promotion (1 queen, 2 rook, 3 bishop, 4 knight).
notation algebraic goes back to algebraic only.
`),
	VerbSettings: lang.Msg(`settings

Lists your settings and the command that changes each: your name,
language, board format, notation, messages, time zone, vacation days left
and daily digest.
`),
	VerbLanguage: lang.Msg(`language de | language en

language de writes your mails in German from now on: every answer,
board, reminder, digest and help text, and this service's invitations
to you; language en goes back to English. Commands and moves stay as
they are: you keep writing move, resign, help in English, and moves in
each variant's notation; in chess you may also write the German piece
letters K D T L S (language de only). Your opponent reads in their own
language.
`),
	VerbName: lang.Msg(`name NAME | name off | name

name Alice Liddell sets the name your opponents, the web pages, the PGN
records and the ratings lists show for you instead of the display name
of your mail: 1 to 40 letters, digits, spaces and . - ' (not "player N").
name off goes back to your mail's name; name alone says how you are
shown. Finished games keep the names they ended with. Names are not
identities: your opponents' mails still show your address.
`),
}
