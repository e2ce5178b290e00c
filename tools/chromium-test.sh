#!/usr/bin/env bash
# Makes sure Debian's chromium and chromium-driver are installed for the web table's
# real-browser tests (crates/server/tests/browser.rs), which never skip: they fail when
# either is missing. Also a Japanese font (IPA Gothic), so the screenshots those tests
# write show Japanese rather than empty boxes. Sourced by tools/test-all.sh.

taku_chromium_install() {
    if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]] &&
        dpkg -s fonts-ipafont-gothic >/dev/null 2>&1; then
        return
    fi
    echo "== Chromium: installing Debian's chromium, chromium-driver and fonts-ipafont-gothic"
    local sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    local packages=(chromium chromium-driver fonts-ipafont-gothic)
    $sudo apt-get install -y -q "${packages[@]}" >/dev/null ||
        { $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q "${packages[@]}" >/dev/null; }
    [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]] ||
        { echo "cannot install chromium and chromium-driver" >&2; return 1; }
}
