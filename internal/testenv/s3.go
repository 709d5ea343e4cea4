package testenv

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// S3 is a running S3-compatible server for tests: versitygw with its posix
// backend in a temporary directory, on a free loopback port.
type S3 struct {
	Endpoint  string // http://127.0.0.1:PORT
	AccessKey string
	SecretKey string
	Root      string // the posix backend's directory: one subdirectory per bucket
	Pid       int    // the server's process (benchmarks read its CPU time)
}

// BucketURL returns the gocloud URL of bucket (created if missing) and sets
// the AWS credential variables for the test.
func (s S3) BucketURL(t testing.TB, bucket string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(s.Root, bucket), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", s.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", s.SecretKey)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	return "s3://" + bucket + "?region=us-east-1&use_path_style=true&endpoint=" + s.Endpoint
}

// VersityGW starts versitygw for the test and stops it at the end. The
// binary is $CLEARHOUSE_TEST_VERSITYGW or bin/versitygw at the repository
// root (`make versitygw` builds it from the module proxy; .ci/run does).
// Under CI a missing binary fails the test.
func VersityGW(t testing.TB) S3 {
	t.Helper()
	bin := os.Getenv("CLEARHOUSE_TEST_VERSITYGW")
	if bin == "" {
		bin = filepath.Join(RepoRoot(t), "bin", "versitygw")
	}
	if _, err := os.Stat(bin); err != nil {
		Missing(t, "versitygw not found at "+bin+" (make versitygw)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := S3{Endpoint: "http://" + addr, AccessKey: "clearhouse-test", SecretKey: "clearhouse-test-secret", Root: t.TempDir()}
	cmd := exec.Command(bin, "--access", s.AccessKey, "--secret", s.SecretKey, "--port", addr, "posix", s.Root)
	logf, err := os.Create(filepath.Join(t.TempDir(), "versitygw.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatalf("start versitygw: %v", err)
	}
	s.Pid = cmd.Process.Pid
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); logf.Close() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(s.Endpoint + "/")
		if err == nil {
			resp.Body.Close()
			return s
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(logf.Name())
			t.Fatalf("versitygw did not answer at %s: %v\n%s", addr, err, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// String describes the server for logs.
func (s S3) String() string { return fmt.Sprintf("versitygw at %s", s.Endpoint) }
