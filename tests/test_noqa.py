"""Tests of flake8_torchcopy.cli.noqa (flake8's ``# noqa``: token groups, codes, ``# flake8: noqa``).

tests/test_noqa_parity.py checks the same against real flake8 runs."""
from __future__ import annotations

from flake8_torchcopy.cli.noqa import NoqaIndex, file_is_skipped, filter_findings
from flake8_torchcopy.finding import Finding


def finding(code, line, stmt=None, end_line=None):
    return Finding(code, "msg", line, 0, end_line or line, 1, None, stmt or (line, end_line or line))


def kept(source, *findings):
    return [f.code + ":" + str(f.line) for f in filter_findings(source, list(findings))]


def test_blanket_noqa():
    src = "a = 1  # noqa\nb = 2\n"
    assert kept(src, finding("TRC101", 1), finding("TRC101", 2)) == ["TRC101:2"]


def test_noqa_codes_are_prefixes_and_separators_vary():
    src = (
        "a = 1  # noqa: TRC101\n"
        "b = 1  # noqa:TRC2\n"
        "c = 1  # NOQA: TRC103, TRC104 TRC105\n"
        "d = 1  # noqa : TRC101\n"
    )
    fs = [finding("TRC101", 1), finding("TRC103", 1), finding("TRC201", 2), finding("TRC101", 2),
          finding("TRC105", 3), finding("TRC104", 3), finding("TRC101", 3), finding("TRC101", 4)]
    # "# noqa : X" is not the codes form: flake8 reads it as a blanket noqa
    assert kept(src, *fs) == ["TRC103:1", "TRC101:2", "TRC101:3"]


def test_noqa_covers_its_token_group_only_as_flake8_does():
    # a line break inside brackets ends a token group: the noqa on line 4 covers line 4 only
    src = "y = f(\n    a,\n    b,\n)  # noqa: TRC101\nz = 1\n"
    assert kept(src, finding("TRC101", 2, stmt=(1, 4)), finding("TRC101", 4, stmt=(1, 4))) == ["TRC101:2"]
    src2 = "y = f(  # noqa\n    a,\n)\n"
    assert kept(src2, finding("TRC101", 1, stmt=(1, 3)), finding("TRC101", 2, stmt=(1, 3))) == ["TRC101:2"]
    # a backslash continuation joins lines
    assert kept("y = 1 + \\\n    2  # noqa\n", finding("TRC101", 1)) == []


def test_noqa_text_is_searched_raw_as_flake8_does():
    """flake8 searches the line's text, not only comments: a string saying ``# noqa``
    counts, and a multi-line string joins its lines with the statement's."""
    src = 's = "# noqa"; t = 1\nu = 1; v = """\n# noqa\n"""\nw = 2\n'
    assert kept(src, finding("TRC101", 1), finding("TRC101", 2), finding("TRC101", 5)) == ["TRC101:5"]


def test_noqa_spelling_as_flake8_reads_it():
    src = ("a = 1  #noqa\n"            # no space: not a noqa
           "b = 1  # NOQA:trc101\n"   # codes compare case-sensitively
           "c = 1  # noqa:TRC\n"      # no digits: not codes, so a blanket noqa
           "d = 1  # noqa:TRC101,E501\n")
    fs = [finding("TRC101", n) for n in (1, 2, 3, 4)]
    assert kept(src, *fs) == ["TRC101:1", "TRC101:2"]


def test_file_level_noqa():
    assert file_is_skipped("import torch\n# flake8: noqa\n")
    assert file_is_skipped("# FLAKE8: NOQA\n")
    assert file_is_skipped("    # flake8=noqa\n")
    # flake8 matches the start of a line only: codes after it do not matter
    assert file_is_skipped("# flake8: noqa: TRC101\n")
    assert not file_is_skipped("x = 1  # flake8: noqa\n")
    assert not file_is_skipped("s = '# flake8: noqa'\n")
    assert not file_is_skipped("#flake8: noqa\n")
    assert kept("# flake8: noqa\nx = 1\n", finding("TRC101", 2)) == []
    # on a line with code it is no file-level noqa, and not "# noqa" either
    assert kept("x = 1  # flake8: noqa: TRC101\n", finding("TRC101", 1)) == ["TRC101:1"]


def test_untokenizable_source_falls_back_to_lines():
    src = "x = 1  # noqa: TRC101\ns = '''unterminated\n"
    idx = NoqaIndex(src)
    assert idx.suppresses(finding("TRC101", 1))
    assert not idx.suppresses(finding("TRC103", 1))


def test_lines_are_pythons_lines():
    """``\\r`` ends a line as ``\\n`` does; ``\\f`` (which ``str.splitlines`` splits at) does not."""
    assert kept("x = 1\ry = 2  # noqa\n", finding("TRC101", 2)) == []
    assert kept("x = 1\r\ny = 2\rz = 3  # noqa: TRC101\r", finding("TRC101", 2), finding("TRC101", 3)) == ["TRC101:2"]
    assert file_is_skipped("x = 1\r# flake8: noqa\r")
    # the comment is not on a line of its own: no file-level skip, only ever this line's
    src = "t = 1  # page\f\nz = 1  # flake8: noqa\ny = 2\n"
    assert not NoqaIndex(src).skip_file
    assert kept(src, finding("TRC101", 3)) == ["TRC101:3"]
