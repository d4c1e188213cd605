import signal


def test_nested_fstring():
    print(f"{f'{signal.alarm(1)}'}")


def test_format_spec_field():
    width = 3
    print(f"{width:{signal.alarm(1)}}")


def test_conversion():
    print(f"{signal.alarm(1)!r:>10}")


def test_escaped_braces_then_field():
    print(f"{{signal.alarm(9)}} {signal.alarm(2)}")


def test_prefixes():
    print(rf"{signal.alarm(1)}", Rf"{signal.alarm(2)}", fR"{signal.alarm(3)}", F"{signal.alarm(4)}")


def test_concat():
    print("{signal.alarm(9)}" f"{signal.alarm(5)}" "x")


def test_dict_in_field():
    print(f"{ {'a': signal.alarm(6)}['a'] }")


def test_string_in_field():
    print(f"{'}' + str(signal.alarm(7))}")


def test_lambda_in_field():
    print(f"{(lambda: signal.alarm(8))()}")


def test_walrus_in_field():
    print(f"{(n := signal.alarm(1))}")


def test_self_doc():
    print(f"{signal.alarm(1)=}")


def test_triple_single():
    print(f'''
    {signal.setitimer(signal.ITIMER_REAL, 1)}
    ''')
