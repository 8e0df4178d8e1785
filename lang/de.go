package lang

// German's catalog is written in the files de_*.go, one per part of the
// service, each adding its messages in an init function.
