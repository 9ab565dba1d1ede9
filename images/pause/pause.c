/* The pause process of a pod sandbox: it holds the pod's namespaces open, reaps the zombies of a
 * shared PID namespace and exits on SIGINT/SIGTERM. Linked statically so that its image holds
 * nothing else (FROM scratch). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_stop(int signal_number) {
  (void)signal_number;
  _exit(0);
}

static void on_child(int signal_number) {
  (void)signal_number;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

static void handle(int signal_number, void (*handler)(int)) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = handler;
  action.sa_flags = SA_RESTART;
  if (sigaction(signal_number, &action, NULL) != 0) {
    perror("pause: sigaction");
    exit(1);
  }
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "-v") == 0) {
    puts("pause (kubefed-cpp)");
    return 0;
  }
  if (getpid() != 1) {
    fputs("pause: warning: not running as PID 1\n", stderr);
  }
  handle(SIGINT, on_stop);
  handle(SIGTERM, on_stop);
  handle(SIGCHLD, on_child);
  for (;;) {
    pause();
  }
}
