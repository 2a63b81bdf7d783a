# Shared by scripts/*.sh: make (or reuse) a virtualenv for one interpreter and
# install the project into it. Usage: ensure_venv PYTHON DIR [pip install args...]
ensure_venv() {
    local python="$1" dir="$2"
    shift 2
    if [ ! -x "$dir/bin/python" ]; then
        "$python" -m venv "$dir"
    fi
    # Dependency groups need pip >= 25.1.
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "pip>=25.1"
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
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
