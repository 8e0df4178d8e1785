package game

import (
	"fmt"
	"github.com/bottlepost/bottlepost/lang"
	"strconv"
	"time"

	"github.com/bottlepost/bottlepost/store"
)

// A service-wide bound on mail to addresses that never wrote to the
// service (issue 35.7): each sender's limits (InvitationsPerDay, the
// welcomes' WelcomesPerDay) bound one identity, but twenty identities made
// two hundred invitations to strangers, and forged From fields turn the
// welcome into mail to any address, three a day each. So every such mail —
// an invitation to an address that never wrote (a challenge's, or each of
// a tournament's, taken together: strangerMails), an answer of first contact
// (the welcome, the answer to unvouched mail) to an address the service
// does not know — takes one of Limits.StrangersPerDay a UTC day; beyond
// it, the challenge is refused (its challenger told why) and the mail
// answered with nothing, and the moment the last one is taken is logged at
// WARN (Handle), once a day.
//
// The day's count is a store setting "strangers/DAY" (decimal), read and
// written in the mail's transaction, exact however many mails are handled
// at once; the sweep forgets past days.

// strangersPrefix starts the setting names of the day's counts.
const strangersPrefix = "strangers/"

// strangerMail takes one of the UTC day's mails to a stranger; ok is false
// when they are all taken. It sets h.strangersFull when it takes the last.
func (h *handling) strangerMail() (ok bool, err error) {
	return h.strangerMails(1)
}

// strangerMails takes k of the UTC day's mails to strangers at once (a
// tournament's invitations), or none when fewer than k are left (ok
// false). It sets h.strangersFull when it takes the last.
func (h *handling) strangerMails(k int) (ok bool, err error) {
	if k == 0 {
		return true, nil
	}
	name := strangersPrefix + h.now.Format("20060102")
	v, err := h.tx.Setting(name)
	if err != nil {
		return false, err
	}
	n := 0
	if v != nil {
		if n, err = strconv.Atoi(string(v)); err != nil {
			return false, fmt.Errorf("game: the day's mails to strangers %s: %q: %w", name, v, store.ErrCorrupt)
		}
	}
	limit := h.s.cfg.Limits.StrangersPerDay
	if n+k > limit {
		return false, nil
	}
	h.strangersFull = n+k == limit
	return true, h.tx.PutSetting(name, []byte(strconv.Itoa(n+k)))
}

// strangersRefused is the refusal of a challenge to a stranger once the
// day's mails to strangers are taken.
func strangersRefused(to string) error {
	return &limitError{setting: "strangers_per_day", text: lang.Msg(
		"no new challenge to %s: bottlepost has sent today all the mail it sends in a day to addresses that never wrote to it (limits.strangers_per_day); challenge them tomorrow (from 00:00 UTC), or ask them to write to bottlepost first",
		to)}
}

// tournamentStrangersRefused is the refusal of a tournament whose
// invitations to strangers would pass the day's mails to strangers.
func tournamentStrangersRefused(k int) error {
	if k == 1 {
		return &limitError{setting: "strangers_per_day", text: lang.Msg(
			"no tournament was created: its invitations would go to 1 address that never wrote to bottlepost, more than the mail it may still send today to such addresses (limits.strangers_per_day); create it tomorrow (from 00:00 UTC), or ask them to write to bottlepost first")}
	}
	return &limitError{setting: "strangers_per_day", text: lang.Msg(
		"no tournament was created: its invitations would go to %d addresses that never wrote to bottlepost, more than the mail it may still send today to such addresses (limits.strangers_per_day); create it tomorrow (from 00:00 UTC), or ask them to write to bottlepost first",
		k)}
}

// pruneStrangers forgets the counts of the days before now's.
func pruneStrangers(tx *store.Tx, now time.Time) (int, error) {
	return tx.DeleteSettings(strangersPrefix, strangersPrefix+now.UTC().Format("20060102"))
}
