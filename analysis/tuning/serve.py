"""The tuning page's server: Voilà serving ``page/tuning.ipynb`` with its settings in code
(a command line turns ``False`` into a string and would leave the Host check off).
``casino-omaha app`` runs it as ``python -m analysis.tuning.serve PORT [ORIGIN]`` with the
page's token in ``$CASINO_OMAHA_APP_TOKEN`` (the environment, not the command line, which
every local user can read).

What it refuses, all through jupyter_server's own checks: a request without the token
(page, kernel and its websocket); a ``Host`` that is not 127.0.0.1/localhost (DNS
rebinding); a websocket from another ``Origin`` than the page's, token or not, unless it
is ORIGIN.
It listens on 127.0.0.1:PORT or nowhere (no retry on the next port) and reads no
``voila.json``/``voila.py`` from the working folder."""

from __future__ import annotations

import os
import sys
from importlib.resources import files
from pathlib import Path

from jupyter_server.auth.identity import PasswordIdentityProvider
from tornado.web import RequestHandler
from traitlets.config import Config

#: Where ``casino-omaha app`` hands the token to the server.
TOKEN_VARIABLE = "CASINO_OMAHA_APP_TOKEN"
PAGE = Path(str(files("analysis.tuning") / "page"))


class OriginCheckedIdentity(PasswordIdentityProvider):
    """Jupyter's token identity, but the Origin is checked on token-authenticated requests
    too (Jupyter skips it there): a browser on another site never reaches the kernel."""

    def should_check_origin(self, handler: RequestHandler) -> bool:
        return True


def voila_config(port: int, token: str, allow_origin: str = "") -> Config:
    """Voilà on 127.0.0.1:port only, token required, Host and Origin checked, sources
    stripped, the CDN-free template (``page/voila/templates/tuning``)."""
    c = Config()
    c.Voila.ip = "127.0.0.1"
    c.Voila.port = port
    c.Voila.port_retries = 0
    c.Voila.open_browser = False
    c.Voila.token = token
    c.Voila.identity_provider_class = OriginCheckedIdentity
    c.Voila.root_dir = str(PAGE)
    c.Voila.config_file_paths = []
    c.Voila.tornado_settings = {
        "allow_remote_access": False,  # jupyter_server's Host check: loopback addresses and local_hostnames
        "local_hostnames": ["localhost"],
        "allow_origin": allow_origin,  # "" = a websocket's Origin must be the page's own
    }
    c.VoilaConfiguration.template = "tuning"
    c.VoilaConfiguration.theme = "light"
    c.VoilaConfiguration.strip_sources = True
    c.VoilaConfiguration.show_tracebacks = False
    c.VoilaConfiguration.file_allowlist = []  # /voila/files/ serves without a token: nothing at all
    return c


def main(argv: list[str]) -> None:
    from voila.app import Voila

    port, allow_origin = int(argv[0]), (argv[1] if len(argv) > 1 else "")
    token = os.environ.pop(TOKEN_VARIABLE)  # the kernel does not inherit it
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(PAGE), os.environ.get("JUPYTER_PATH")]))
    Voila.launch_instance([str(PAGE / "tuning.ipynb")], config=voila_config(port, token, allow_origin))


if __name__ == "__main__":
    main(sys.argv[1:])
