package game

import (
	"fmt"
)

// Mail refused because nothing vouches for its sender (Config.TrustedAuthServ:
// the trusted server's Authentication-Results show no aligned pass) gets an
// answer saying why, so that a member whose mail program or mail server is
// set up wrong is not left in silence. The answer goes to the From address,
// which is exactly what nobody vouched for: anyone can make the service write
// to any address by forging it. So the answer is bounded and empty of
// anything a forger controls:
//
//   - at most one a UTC day per sender address (a store-backed marker, the
//     processed id "unverified:ADDRESS:DAY", taken even when the reply
//     allowance holds the answer back), and it takes one of the sender's
//     WelcomesPerDay slots of first contact, so that whatever mix of
//     mail a stranger's address is used for, it gets at most that many
//     answers a day; and it asks the sender's reply allowance
//     (Incoming.Allow) like any answer outside games, without the
//     over-limit notice;
//   - its text is fixed: the service's address and the trusted server's
//     name, both the operator's; nothing of the refused mail (no subject,
//     no quoted line, no In-Reply-To or References to its Message-ID) and
//     no reply address with a token.
//
// A forger can thus make the service send one fixed mail a day to an
// address, as a bounce would; the owner learns that mail in their name was
// not acted on.

// unverifiedPrefix starts the processed ids that mark a day's answer.
const unverifiedPrefix = "unverified:"

// unverified answers mail refused for want of authentication (see above);
// h.refused already says why.
func (h *handling) unverified() error {
	marker := fmt.Sprintf("%s%s:%s", unverifiedPrefix, h.from, h.now.Format("2006-01-02"))
	sent, err := h.tx.Processed(marker)
	if err != nil {
		return err
	}
	if sent {
		h.refused += "; the day's answer to the sender was sent"
		return nil
	}
	if ok, err := h.welcomeSlot(); err != nil || !ok {
		return err
	}
	if err := h.tx.MarkProcessed(marker, h.now); err != nil {
		return err
	}
	if !h.allowed("unverified", false) {
		return nil // no notice either: nothing vouches for the address
	}
	d := h.draft(h.from, nil, "notice")
	d.subject = d.tr("bottlepost: your mail was not acted on")
	d.inReplyTo = "" // nothing of the refused mail goes back
	d.replyTo = ""
	server := h.s.cfg.TrustedAuthServ
	d.notice("Your mail to %s was not acted on: the mail server %s did not confirm that it came from your address.", h.s.cfg.Address, server)
	d.notice("\nbottlepost acts only on mail that %s vouches for: mail sent through the club's mail server while logged in with your own account (as your mail program does once it is set up for the club), or mail from a provider that signs it with DKIM.", server)
	d.notice("\nIf you did not write to %s, someone else used your address: nothing was done, and you can ignore this mail.", h.s.cfg.Address)
	d.notice("\nThis answer is sent at most once a day; more such mail today gets none.")
	h.lastWelcomeNotice(d)
	return nil
}

// Unvouched says why serve, trusting the Authentication-Results of the
// server trustedAuthServ (service.trusted_authserv), would not act on mail
// from the address from that carries these Authentication-Results values,
// topmost first; "" when it would, or when trustedAuthServ is empty.
// check-mail judges its own probe with it.
func Unvouched(trustedAuthServ, from string, authResults []string) string {
	s := &Service{cfg: Config{TrustedAuthServ: trustedAuthServ}}
	return s.authFailure(&Incoming{From: from, AuthResults: authResults})
}
