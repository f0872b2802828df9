package pgtest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// cluster is the throwaway cluster this process started, if any.
var cluster struct {
	mu     sync.Mutex
	dir    string
	cmd    *exec.Cmd
	exited chan error
}

// start initialises a cluster in a new temporary directory and starts it on
// a free loopback port. When this process ends, however it ends, the
// server is shut down and the directory removed.
func start() (connStr, skip string, err error) {
	bin := binDir()
	if bin == "" {
		return "", "no initdb and postgres binaries in PATH or /usr/lib/postgresql/*/bin (and " + Env + " is not set)", nil
	}
	removeStale()
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return "", "running as root, and there is no postgres user to run initdb as (and " + Env + " is not set)", nil
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	for try := 0; ; try++ {
		dir, err := initCluster(bin, cred)
		if err != nil {
			return "", "", err
		}
		port, err := freePort()
		if err == nil {
			err = run(bin, dir, port, cred)
		}
		if err == nil {
			return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port), "", nil
		}
		os.RemoveAll(dir)
		if try == 2 {
			return "", "", err
		}
	}
}

// initCluster makes a new temporary directory (owned by cred's user) with a
// cluster in its data subdirectory.
func initCluster(bin string, cred *syscall.Credential) (string, error) {
	dir, err := os.MkdirTemp("", "rig-pgtest-")
	if err != nil {
		return "", err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return "", err
		}
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", filepath.Join(dir, "data"), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.Dir = dir
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("initdb: %v\n%s", err, out)
	}
	return dir, nil
}

// supervisor runs the server ("$@") and, once it has exited, removes the
// cluster's directory. SIGTERM (sent when this process dies, or by Stop)
// asks the server for a fast shutdown.
const supervisor = `"$@" </dev/null & pid=$!
trap 'kill -INT $pid 2>/dev/null' INT TERM
while kill -0 $pid 2>/dev/null; do wait $pid; done
rm -rf "$RIG_PGTEST_DIR"`

func run(bin, dir string, port int, cred *syscall.Credential) error {
	var logBuf bytes.Buffer
	cmd := exec.Command("/bin/sh", "-c", supervisor, "sh", filepath.Join(bin, "postgres"), "-D", filepath.Join(dir, "data"),
		"-p", strconv.Itoa(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=300")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RIG_PGTEST_DIR="+dir)
	cmd.Stdout, cmd.Stderr = &logBuf, &logBuf
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGTERM}
	started, exited := make(chan error, 1), make(chan error, 1)
	go func() {
		// Pdeathsig follows the thread that started the child: keep this
		// one for as long as the server runs.
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		exited <- cmd.Wait()
	}()
	if err := <-started; err != nil {
		return fmt.Errorf("starting postgres: %w", err)
	}
	connStr := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case err := <-exited:
			return fmt.Errorf("postgres exited: %v\n%s", err, logBuf.String())
		case <-time.After(100 * time.Millisecond):
		}
		if ping(connStr) == nil {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			return fmt.Errorf("postgres did not start in time:\n%s", logBuf.String())
		}
	}
	cluster.mu.Lock()
	cluster.dir, cluster.cmd, cluster.exited = dir, cmd, exited
	cluster.mu.Unlock()
	return nil
}

// Stop shuts down the cluster this process started, if any, and removes
// its directory, which happens anyway when the process exits. A directory
// left by a process killed with its server is removed by a later start.
func Stop() {
	cluster.mu.Lock()
	defer cluster.mu.Unlock()
	if cluster.cmd == nil {
		return
	}
	_ = cluster.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-cluster.exited:
	case <-time.After(20 * time.Second):
		_ = cluster.cmd.Process.Kill()
		<-cluster.exited
	}
	os.RemoveAll(cluster.dir)
	cluster.cmd = nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// removeStale removes the directories of earlier clusters whose server is
// gone.
func removeStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "rig-pgtest-*"))
	for _, dir := range dirs {
		fi, err := os.Stat(dir)
		if err != nil || time.Since(fi.ModTime()) < 10*time.Minute {
			continue
		}
		pidFile, err := os.ReadFile(filepath.Join(dir, "data", "postmaster.pid"))
		if err == nil {
			pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(pidFile), "\n", 2)[0]))
			if pid > 0 && !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
				continue
			}
		}
		os.RemoveAll(dir)
	}
}
