"""The plugin's modes: what one build does in each hook, chosen once in ``on_config``.

- :class:`~.nested.EnglishSite`: the site's English build, which translates the site and then
  runs the nested build of the Chinese edition (:class:`~.nested.ChineseSite` while it runs);
- :class:`~.bridge.Bridge`: beside mkdocs-static-i18n, Chinese is one of its languages, built by
  it from the translated files the plugin hands it;
- :class:`~.collecting.Collect` (:class:`~.collecting.BridgeCollect` beside static-i18n): the
  English build that ``review sync`` and other commands run to collect the pages, stopping there.

The plugin's hooks only delegate to the mode of the build running now (``Kept.mode``).
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig

from .. import chrome, site, uistrings
from ..buildlog import WarningCount
from ..coexist import find_static_i18n
from ..collect import Collector
from ..overrides import translatable_copyright
from .base import EnglishText, Kept, Mode, log
from .bridge import Bridge
from .collecting import BridgeCollect, Collect
from .nested import ChineseSite, EnglishSite
from .variant import VariantSite

EnglishSite.make_variant = VariantSite  # the extra variants' nested builds (zh-TW …)

__all__ = [
    "Bridge", "BridgeCollect", "ChineseSite", "Collect", "EnglishSite", "Kept", "Mode", "VariantSite", "start"
]


def start(kept: Kept, config: MkDocsConfig, collector: Collector | None) -> Mode:
    """Set the pipeline up for the build whose ``on_config`` runs now, and choose its mode:
    beside mkdocs-static-i18n or not, collecting (``collector`` set) or not."""
    options = kept.options
    kept.pipeline.configure(options, config)
    kept.pipeline.english.clear()
    text = EnglishText(
        site_name=config.site_name,
        site_description=config.site_description,
        copyright=config.copyright if translatable_copyright(config.copyright) else None,
        copyright_html=chrome.html_copyright(config.copyright),
    )
    kept.sources.reset()
    i18n = find_static_i18n(config)
    mode: Mode
    if i18n is not None:
        if kept.pipeline.variants():
            log.warning("option 'variants' is ignored beside mkdocs-static-i18n: only the "
                        "Simplified language is built (use `docs --variant zh-TW` for its files)")
        mode = (
            Bridge(kept, config, i18n, text)
            if collector is None
            else BridgeCollect(kept, config, i18n, text, collector)
        )
    else:
        variants = tuple((v.code, v.region.label) for v in kept.pipeline.variants())
        langs = site.Languages(options.language, config.site_url, variants)
        mode = (
            EnglishSite(kept, config, langs, text)
            if collector is None
            else Collect(kept, config, langs, text, collector)
        )
    text.ui = uistrings.collect(config)
    kept.theme_text.collect(config.theme.custom_dir)
    mode.configured(config)
    kept.stop_counting()
    if config.strict:
        kept.english_warnings = WarningCount().start()
    return mode
