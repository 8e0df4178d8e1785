// Package mailer moves bottlepost's mail: IMAP in (IMAPSource, with IDLE or
// polling), Maildir in and out, SMTP out (the Outbox drainer, through the
// submission client of package mailer/smtpclient), the
// embedded mail hub (IMAP + SMTP on loopback), and the per-sender reply
// limit (RateLimiter). It only moves bytes: reading and writing the mail
// format (parsing, cleaning, classifying, addresses, subject tags,
// composing) is package mailfmt.
package mailer
