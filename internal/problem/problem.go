// Package problem is the one vocabulary of client mistakes every package
// reports and the API renders once: a Field names what is wrong with one
// part of a request (its JSON Pointer path and how to fix it), and an Error
// is a mistake of a known Kind whose Message is written for the caller, so
// the API never reads another package's error text.
package problem

import (
	"errors"
	"strings"
)

// Field is one problem of a request: Path is a JSON Pointer into the body
// ("/subscriber/memberId") or "/query/<name>"; Message says what is wrong
// and how to fix it.
type Field struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Kind is what sort of mistake an Error is; the API maps each to its
// status and code.
type Kind int

// Kinds of Error.
const (
	// Forbidden: the caller may not do this (403).
	Forbidden Kind = iota + 1
	// Unavailable: the server is not set up for this (503).
	Unavailable
)

// Error is a mistake whose Message is meant for the caller. Package names
// the package that reports it, as the prefix of Error() for logs.
type Error struct {
	Kind    Kind
	Package string
	Message string
}

// New returns an Error; compare with errors.Is (the pointer is the identity).
func New(kind Kind, pkg, message string) *Error {
	return &Error{Kind: kind, Package: pkg, Message: message}
}

func (e *Error) Error() string { return e.Package + ": " + e.Message }

// As returns the Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Invalid lists what is wrong with a request, in field order: at most
// findings.Max Fields, More counting the problems found past them (a
// request can hold any number of mistakes). Every package's validation
// error is an Invalid; the API renders it once, as 400 VALIDATION_ERROR
// with fieldList = Fields.
type Invalid struct {
	// What names what was invalid, the start of Error() for logs
	// ("invalid claim", "webhooks: invalid settings").
	What   string
	Fields []Field
	More   int
}

// NewInvalid returns an Invalid.
func NewInvalid(what string, fields []Field, more int) *Invalid {
	return &Invalid{What: what, Fields: fields, More: more}
}

func (e *Invalid) Error() string {
	var b strings.Builder
	b.WriteString(e.What)
	for i, f := range e.Fields {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(f.Path + ": " + f.Message)
	}
	return b.String()
}

// AsInvalid returns the Invalid in err's chain, if any.
func AsInvalid(err error) (*Invalid, bool) {
	var e *Invalid
	ok := errors.As(err, &e)
	return e, ok
}
