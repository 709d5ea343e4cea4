//go:build tools

// Package versitygw pins the S3 server the blob and scale-out tests run
// against (versitygw, Apache-2.0, posix backend). It is a separate module so
// the service's own go.mod does not carry it. Build it with
//
//	go build -C tools/versitygw -o ../../bin/versitygw github.com/versity/versitygw/cmd/versitygw
//
// (make versitygw does this).
package versitygw

import _ "github.com/versity/versitygw/cmd/versitygw"
