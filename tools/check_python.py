"""Fail early, in plain words, when the interpreter is not Python 3.11.

Kept free of f-strings and annotations so that it runs (and explains) on any Python.
"""
import sys

WANT = (3, 11)


def main():
    have = sys.version_info[:2]
    if have != WANT:
        sys.stderr.write(
            "\nThis project needs Python {0}.{1}; {2} is Python {3}.{4}.\n"
            "MXNet 1.9.1 (its last release) is tested here only on Python 3.11.\n"
            "Install Python 3.11, then run again, for example:\n"
            "  - Debian/Ubuntu:  apt-get install python3.11 python3.11-venv\n"
            "  - pyenv:          pyenv install 3.11 && make setup PYTHON=$(pyenv prefix 3.11)/bin/python\n"
            "  - conda:          conda env create -f environment.yml\n"
            "  - or point make at one:  make setup PYTHON=/path/to/python3.11\n\n".format(
                WANT[0], WANT[1], sys.executable, have[0], have[1]))
        return 1
    print("Python {0}.{1}.{2} at {3}: OK".format(have[0], have[1], sys.version_info[2], sys.executable))
    return 0


if __name__ == "__main__":
    sys.exit(main())
