"""Widgets for notebooks: step through a recorded search (the ``notebooks`` extra).

>>> import dlx
>>> from dlx import viz
>>> steps = viz.record(dlx.ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]}))
>>> w = steps.slider()
>>> w.forward.click()
>>> w.slider.value, w.event.value
(1, 'step 1: L0 choose item a (2 options)')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["stepper"]


def stepper(steps: int, title: Callable[[int], str], picture: Callable[[int], bytes]) -> Any:
    """A widget to step through ``steps`` states (0 to ``steps - 1``): a slider with a step
    back and a step forward button, the state's ``title(k)``, and its ``picture(k)`` (PNG
    bytes); None when ipywidgets is not installed.  ``Stepper.slider`` of :mod:`dlx.viz`
    makes one over the pauses of a search.

    The widget is a ``VBox``; its state is plain attributes, so a program (or a test)
    can drive it: ``.slider`` (an ``IntSlider``: set ``.value``), ``.back`` and
    ``.forward`` (``Button``: call ``.click()``), ``.event`` (a ``Label``) and
    ``.picture`` (an ``Image`` holding the PNG of the step shown).  Each step's
    picture is drawn once, when first shown.
    """
    try:
        import ipywidgets  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    last = steps - 1
    pictures: dict[int, bytes] = {}
    slider = ipywidgets.IntSlider(min=0, max=last, value=0, description="step",
                                  continuous_update=False)
    back = ipywidgets.Button(description="step back", icon="step-backward",
                             layout=ipywidgets.Layout(width="auto"))
    forward = ipywidgets.Button(description="step forward", icon="step-forward",
                                layout=ipywidgets.Layout(width="auto"))
    event = ipywidgets.Label()
    shown = ipywidgets.Image(format="png")

    def show(change: Any = None) -> None:
        k = slider.value
        if k not in pictures:
            pictures[k] = picture(k)
        shown.value = pictures[k]
        event.value = title(k)
        back.disabled, forward.disabled = k == 0, k == last

    def step(by: int) -> Callable[[Any], None]:
        def go(_: Any) -> None:
            slider.value = min(max(slider.value + by, 0), last)
        return go

    slider.observe(show, names="value")
    back.on_click(step(-1))
    forward.on_click(step(+1))
    show()
    box = ipywidgets.VBox([ipywidgets.HBox([back, slider, forward]), event, shown])
    box.slider, box.back, box.forward, box.event, box.picture = (slider, back, forward, event,
                                                                 shown)
    return box
