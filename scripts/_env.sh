# Shared by scripts/*.sh: make (or reuse) a virtualenv for one interpreter and
# install the project into it, saying what it does as it goes.
# Usage: ensure_venv PYTHON DIR [pip install args...]
ensure_venv() {
    local python="$1" dir="$2"
    shift 2
    if [ ! -x "$dir/bin/python" ]; then
        echo "-- $dir: creating the virtualenv (the first run installs everything: a few minutes)"
        "$python" -m venv "$dir"
    fi
    # Dependency groups need pip >= 25.1.
    echo "-- $dir: pip >= 25.1"
    pip_install "$dir/bin/python" --upgrade "pip>=25.1"
    echo "-- $dir: installing $*"
    pip_install "$dir/bin/python" "$@"
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
