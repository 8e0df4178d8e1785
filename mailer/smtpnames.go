package mailer

import "github.com/bottlepost/bottlepost/mailer/smtpclient"

// The submission client's old names in this package, from before it moved
// to package smtpclient (issue 30). Only cmd/bottlepost's real-stack test
// still uses them; once it names smtpclient's types, this file goes.
type (
	// SMTPConfig is smtpclient.Config.
	SMTPConfig = smtpclient.Config
	// Outgoing is smtpclient.Mail.
	Outgoing = smtpclient.Mail
)

// NewSender is smtpclient.New.
func NewSender(cfg SMTPConfig) (*smtpclient.Sender, error) { return smtpclient.New(cfg) }
