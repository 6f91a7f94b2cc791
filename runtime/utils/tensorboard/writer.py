"""``SummaryWriter`` and ``FileWriter``: torch's event-file writers over tensorboard's
``EventFileWriter``, with torch's defaults (``runs/<time>_<host><comment>``, queue and flush interval)
and methods for scalars, grouped scalars, histograms and text."""

import os
import socket
import time
from datetime import datetime

from tensorboard.compat.proto.event_pb2 import Event, SessionLog
from tensorboard.summary.writer.event_file_writer import EventFileWriter

from .summary import default_bins, histogram, scalar, text

__all__ = ["FileWriter", "SummaryWriter"]


def _default_log_dir(comment: str) -> str:
    """torch's default: ``runs/<Mon>DD_HH-MM-SS_<host><comment>``."""
    stamp = datetime.now().strftime("%b%d_%H-%M-%S")
    return os.path.join("runs", f"{stamp}_{socket.gethostname()}{comment}")


def _purge_marks(step: int) -> list:
    """The events that make TensorBoard drop what an earlier run logged from ``step`` on."""
    return [
        Event(step=step, file_version="brain.Event:2"),
        Event(step=step, session_log=SessionLog(status=SessionLog.START)),
    ]


class FileWriter:
    """Writes Event protos to an event file in ``log_dir`` (tensorboard's writer, as torch's)."""

    def __init__(self, log_dir, max_queue=10, flush_secs=120, filename_suffix=""):
        self.event_writer = EventFileWriter(str(log_dir), max_queue, flush_secs, filename_suffix)

    def get_logdir(self) -> str:
        return self.event_writer.get_logdir()

    def add_event(self, event, step=None, walltime=None) -> None:
        """Stamp ``event`` with ``walltime`` (now by default) and ``step`` (when given), then queue it."""
        event.wall_time = walltime if walltime is not None else time.time()
        if step is not None:
            event.step = int(step)
        self.event_writer.add_event(event)

    def add_summary(self, summary, global_step=None, walltime=None) -> None:
        self.add_event(Event(summary=summary), global_step, walltime)

    def flush(self) -> None:
        self.event_writer.flush()

    def close(self) -> None:
        self.event_writer.close()


class SummaryWriter:
    """Log scalars, histograms and text for TensorBoard, as ``torch.utils.tensorboard.SummaryWriter``.

    >>> import tempfile, yaten
    >>> writer = SummaryWriter(tempfile.mkdtemp())
    >>> writer.add_scalars("loss", {"train": 0.5, "val": 0.7}, global_step=0)
    >>> writer.add_histogram("weights", yaten.randn(100), global_step=0)
    >>> writer.close()
    """

    def __init__(
        self, log_dir=None, comment="", purge_step=None, max_queue=10, flush_secs=120, filename_suffix=""
    ):
        # torch's attribute names (scripts read writer.log_dir, writer.file_writer, writer.all_writers).
        self.log_dir = log_dir or _default_log_dir(comment)
        self.purge_step = purge_step
        self.max_queue, self.flush_secs, self.filename_suffix = max_queue, flush_secs, filename_suffix
        self.file_writer = None
        self.all_writers = None  # log dir -> FileWriter: the main one, and one per add_scalars series
        self._get_file_writer()
        self.default_bins = default_bins()

    def _new_file_writer(self, log_dir) -> FileWriter:
        return FileWriter(log_dir, self.max_queue, self.flush_secs, self.filename_suffix)

    def _get_file_writer(self) -> FileWriter:
        """The main FileWriter, opened again after ``close``; its first events purge from ``purge_step``."""
        if self.file_writer is not None and self.all_writers is not None:
            return self.file_writer
        main = self.file_writer = self._new_file_writer(self.log_dir)
        self.all_writers = {main.get_logdir(): main}
        if self.purge_step is not None:
            for mark in _purge_marks(self.purge_step):
                main.add_event(mark)
            self.purge_step = None  # only once: a reopened writer appends
        return main

    def get_logdir(self) -> str:
        """The directory the event files go to."""
        return self.log_dir

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, new_style=False,
                   double_precision=False) -> None:  # fmt: skip
        """Log one number (a Python number, a NumPy scalar or a one-element tensor)."""
        summary = scalar(tag, scalar_value, new_style=new_style, double_precision=double_precision)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None) -> None:
        """Log several numbers under one chart; each goes to its own run ``<logdir>/<main_tag>_<tag>``."""
        stamp = time.time() if walltime is None else walltime
        base = self._get_file_writer().get_logdir()
        series_prefix = f"{base}/{main_tag.replace('/', '_')}_"
        for tag, value in tag_scalar_dict.items():
            run_dir = series_prefix + tag
            if run_dir not in self.all_writers:
                self.all_writers[run_dir] = self._new_file_writer(run_dir)
            self.all_writers[run_dir].add_summary(scalar(main_tag, value), global_step, stamp)

    def add_histogram(
        self, tag, values, global_step=None, bins="tensorflow", walltime=None, max_bins=None
    ) -> None:
        """Log the histogram of ``values`` (``bins``: TensorFlow's default buckets, or NumPy's ``bins``)."""
        edges = self.default_bins if isinstance(bins, str) and bins == "tensorflow" else bins
        summary = histogram(tag, values, edges, max_bins=max_bins)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_text(self, tag, text_string, global_step=None, walltime=None) -> None:
        """Log a string (Markdown in TensorBoard's text tab)."""
        self._get_file_writer().add_summary(text(tag, text_string), global_step, walltime)

    def _open_writers(self) -> list:
        return [] if self.all_writers is None else list(self.all_writers.values())

    def flush(self) -> None:
        """Write what is queued to disk."""
        for writer in self._open_writers():
            writer.flush()

    def close(self) -> None:
        """Flush and close every event file (a later ``add_*`` opens a new one)."""
        for writer in self._open_writers():
            writer.flush()
            writer.close()
        self.file_writer = None
        self.all_writers = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
