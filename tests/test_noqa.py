"""Tests of flake8_torchcopy.noqa (per-statement ``# noqa``, codes, ``# flake8: noqa``)."""
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


def test_noqa_covers_the_whole_multiline_statement():
    src = "y = f(\n    a,\n    b,\n)  # noqa: TRC101\nz = 1\n"
    f_inner = finding("TRC101", 2, stmt=(1, 4))
    f_other = finding("TRC103", 2, stmt=(1, 4))
    f_next = finding("TRC101", 5)
    assert kept(src, f_inner, f_other, f_next) == ["TRC103:2", "TRC101:5"]
    src2 = "y = f(  # noqa\n    a,\n)\n"
    assert kept(src2, finding("TRC101", 2, stmt=(1, 3))) == []


def test_noqa_inside_a_string_is_not_a_comment():
    src = 's = "# noqa"; t = 1\nu = """\n# noqa\n"""\n'
    assert kept(src, finding("TRC101", 1), finding("TRC101", 2, stmt=(2, 4))) == ["TRC101:1", "TRC101:2"]


def test_file_level_noqa():
    assert file_is_skipped("import torch\n# flake8: noqa\n")
    assert file_is_skipped("# FLAKE8: NOQA\n")
    assert file_is_skipped("    # flake8=noqa\n")
    # with codes flake8 ignores it; not on a line of its own it is not file-level either
    assert not file_is_skipped("# flake8: noqa: TRC101\n")
    assert not file_is_skipped("x = 1  # flake8: noqa\n")
    assert not file_is_skipped("s = '# flake8: noqa'\n")
    assert kept("# flake8: noqa\nx = 1\n", finding("TRC101", 2)) == []
    # "# flake8: noqa: CODES" suppresses nothing (not even as a line noqa)
    assert kept("x = 1  # flake8: noqa: TRC101\n", finding("TRC101", 1)) == ["TRC101:1"]


def test_untokenizable_source_falls_back_to_lines():
    src = "x = 1  # noqa: TRC101\ns = '''unterminated\n"
    idx = NoqaIndex(src)
    assert idx.suppresses(finding("TRC101", 1))
    assert not idx.suppresses(finding("TRC103", 1))


def test_findings_without_statement_lines_use_their_own_lines():
    src = "a = (\n  1)  # noqa\n"
    f = Finding("TRC101", "m", 1, 0, 2, 3, None)  # stmt_lines left at (0, 0)
    assert filter_findings(src, [f]) == []


def test_lines_are_pythons_lines():
    """``\\r`` ends a line as ``\\n`` does; ``\\f`` (which ``str.splitlines`` splits at) does not."""
    assert kept("x = 1\ry = 2  # noqa\n", finding("TRC101", 2)) == []
    assert kept("x = 1\r\ny = 2\rz = 3  # noqa: TRC101\r", finding("TRC101", 2), finding("TRC101", 3)) == ["TRC101:2"]
    assert file_is_skipped("x = 1\r# flake8: noqa\r")
    # the comment is not on a line of its own: no file-level skip, only ever this line's
    src = "t = 1  # page\f\nz = 1  # flake8: noqa\ny = 2\n"
    assert not NoqaIndex(src).skip_file
    assert kept(src, finding("TRC101", 3)) == ["TRC101:3"]
