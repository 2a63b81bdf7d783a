# Shared by scripts/*.sh: make (or reuse) a virtualenv for one interpreter and
# install the project into it, saying what it does as it goes.
# Usage: ensure_venv PYTHON DIR [pip install args...]
#
# With STANDARD_TOOL_VENV_CACHE naming a folder (.ci/run sets it), DIR becomes a
# link to a virtualenv kept in that folder between runs and clones, named by a hash
# of what it installs: the interpreter, the pip arguments, the files they name with
# -r, the tables of pyproject.toml they install and the files in VENV_KEY_FILES.
# Change any of them and the next run builds a new one (and deletes the old one of
# the same DIR); change none and the run only reinstalls the project itself. One
# unused for 14 days is deleted. An interrupted build is never reused: a virtualenv
# counts only once its first install has succeeded. Delete the folder to start
# afresh (for example, for newer releases).
ensure_venv() {
    local python="$1" dir="$2" cached="" built target
    shift 2
    if [ -n "${STANDARD_TOOL_VENV_CACHE:-}" ]; then
        cached="$STANDARD_TOOL_VENV_CACHE/$(basename "$dir")-$(venv_key "$python" "$@")"
        mkdir -p "$STANDARD_TOOL_VENV_CACHE" "$(dirname "$dir")"
        if [ -f "$cached/.installed" ]; then
            echo "-- $dir: reusing $cached (same interpreter and requirements)"
        else
            rm -rf "$cached"
        fi
        rm -rf "$dir"
        ln -s "$cached" "$dir"
    fi
    built=0
    if [ ! -x "$dir/bin/python" ]; then
        echo "-- $dir: creating the virtualenv (the first run installs everything: a few minutes)"
        "$python" -m venv "${cached:-$dir}"  # a link to a venv not yet made: make its target
        built=1
    fi
    # pip runs by the kept virtualenv's own path, not through the link: the scripts it
    # installs name their interpreter by the path pip ran with.
    target="${cached:-$dir}"
    # Dependency groups need pip >= 25.1.
    echo "-- $dir: pip >= 25.1"
    pip_install "$target/bin/python" --upgrade "pip>=25.1"
    echo "-- $dir: installing $*"
    pip_install "$target/bin/python" "$@"
    if [ -n "$cached" ]; then
        touch "$cached/.installed"
        # Kept: the newest virtualenv of each DIR, and others used in the last 14 days.
        if [ "$built" = 1 ]; then
            find "$STANDARD_TOOL_VENV_CACHE" -mindepth 1 -maxdepth 1 -regextype posix-extended \
                -regex ".*/$(basename "$dir")-[0-9a-f]{16}" ! -path "$cached" -exec rm -rf {} +
        fi
        find "$STANDARD_TOOL_VENV_CACHE" -mindepth 2 -maxdepth 2 -name .installed -mtime +14 \
            -printf '%h\0' | xargs -0 -r rm -rf
    fi
}

# The hash of what ensure_venv would install (scripts/venv_key.py says what it
# covers), computed by the first CPython 3.11 or later found (it needs tomllib).
# Usage: venv_key PYTHON [pip install args...]
venv_key() {
    local candidate
    while read -r candidate; do
        if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            "$candidate" scripts/venv_key.py "$@"
            return
        fi
    done < <(find_pythons; command -v python3)
    echo "scripts/_env.sh: the virtualenv cache needs a CPython 3.11 or later" >&2
    return 1
}

# pip install with PYTHON, showing each package as pip collects it and the summary
# line; on failure, the end of pip's whole output. Usage: pip_install PYTHON [args...]
pip_install() {
    local python="$1" log code
    shift
    log=$(mktemp)
    {
        code=0
        "$python" -m pip install --disable-pip-version-check "$@" 2>&1 || code=$?
        echo "$code" >"$log.code"
    } | tee "$log" | {
        grep --line-buffered -E '^(Collecting|Successfully installed) ' || true
    } | sed -u -E 's/^(.{0,110}).*/   \1/'
    code=$(cat "$log.code")
    if [ "$code" != 0 ]; then
        echo "-- pip install failed (exit $code); the end of its output:" >&2
        tail -n 40 "$log" >&2
    fi
    rm -f "$log" "$log.code"
    return "$code"
}

# The CPython 3.10-3.13 interpreters on this machine, one path per line: pyenv's
# when present, else python3.X on PATH.
find_pythons() {
    local version found
    for version in 3.10 3.11 3.12 3.13; do
        found=""
        if command -v pyenv >/dev/null 2>&1 || [ -d "${PYENV_ROOT:-$HOME/.pyenv}/versions" ]; then
            found=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version".*/bin/python 2>/dev/null | sort -V | tail -n 1)
        fi
        if [ -z "$found" ] && command -v "python$version" >/dev/null 2>&1; then
            found=$(command -v "python$version")
        fi
        [ -n "$found" ] && echo "$found"
    done
    return 0
}

# The interpreter of one CPython version (3.X) among find_pythons', or nothing.
python_for() {
    local candidate found=""
    while read -r candidate; do
        if [ "$("$candidate" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" = "$1" ]; then
            found=$candidate
        fi
    done < <(find_pythons)
    echo "$found"
}
