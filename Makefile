# Installs swiftshape: the release build (.ci/build-release), its manual page and its bash, zsh and
# fish completions, under PREFIX (and DESTDIR, for packaging).
#   make install [PREFIX=/usr/local]     the command, the manual page, the completions
#   make install-hb-shape                 also an hb-shape link: the drop-in reads and prints as hb-shape
#   make uninstall [PREFIX=…]             removes what install and install-hb-shape put there
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: install install-hb-shape uninstall

install:
	bin=$$(bash .ci/build-release .build-release) && \
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)" && \
	install -m 755 "$$bin/swiftshape" "$(BINDIR)/swiftshape" && \
	"$$bin/swiftshape" manual > "$(MANDIR)/swiftshape.1" && \
	"$$bin/swiftshape" --generate-completion-script bash > "$(BASHDIR)/swiftshape" && \
	"$$bin/swiftshape" --generate-completion-script zsh > "$(ZSHDIR)/_swiftshape" && \
	"$$bin/swiftshape" --generate-completion-script fish > "$(FISHDIR)/swiftshape.fish"

install-hb-shape: install
	ln -sf swiftshape "$(BINDIR)/hb-shape"

uninstall:
	rm -f "$(BINDIR)/swiftshape" "$(MANDIR)/swiftshape.1" "$(BASHDIR)/swiftshape" "$(ZSHDIR)/_swiftshape" \
	  "$(FISHDIR)/swiftshape.fish"
	if [ -L "$(BINDIR)/hb-shape" ] && [ "$$(readlink "$(BINDIR)/hb-shape")" = swiftshape ]; then \
	  rm -f "$(BINDIR)/hb-shape"; fi
