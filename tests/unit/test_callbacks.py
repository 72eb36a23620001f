"""``callbacks`` of the skorch-trained estimators: a user's skorch callbacks see every epoch.

A recording ``Callback`` checks what skorch hands it (each epoch's history,
start and end of training); skorch's own ``Checkpoint`` and
``EarlyStopping`` run as they would on any skorch net; the parameter is a
plain scikit-learn parameter (stored as given, copied by ``clone``, one copy
per ``GridSearchCV`` fit), and a fitted estimator keeps none of them.
"""

import json
import pickle
import threading

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from skorch.callbacks import Callback, Checkpoint, EarlyStopping

from skxor import BooleanTransformerClassifier, FFNNParityBaseline, KParityTransformer
from skxor.datasets import make_sparse_parity


class EpochRecorder(Callback):
    """Records the epochs and training losses skorch reports, and the start and end."""

    def __init__(self):
        self.events_ = []

    def on_train_begin(self, net, **kwargs):
        self.events_.append("begin")

    def on_epoch_end(self, net, **kwargs):
        self.events_.append((len(net.history), net.history[-1, "train_loss"]))

    def on_train_end(self, net, **kwargs):
        self.events_.append("end")


class Unpicklable(EpochRecorder):
    """A tracker holding what cannot be pickled (as a writer or a run handle does)."""

    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()


def _data(d=6, n=400):
    return make_sparse_parity(n, d, support=[0, 3], random_state=0)


ESTIMATORS = [
    lambda cbs: FFNNParityBaseline(width=8, max_iter=4, random_state=0, callbacks=cbs),
    lambda cbs: BooleanTransformerClassifier(d_model=8, n_layers=1, n_heads=2, max_iter=3,
                                             batch_size=64, random_state=0, callbacks=cbs),
    lambda cbs: KParityTransformer(2, orientation="odd", max_iter=3, random_state=0,
                                   callbacks=cbs),
]
IDS = ["FFNNParityBaseline", "BooleanTransformerClassifier", "KParityTransformer"]


@pytest.mark.parametrize("make", ESTIMATORS, ids=IDS)
def test_a_callback_sees_every_epoch_and_its_loss(make):
    recorder = Unpicklable()
    clf = make([recorder])
    assert clf.get_params()["callbacks"][0] is recorder  # stored as given
    clf.fit(*_data())
    epochs = recorder.events_[1:-1]
    assert recorder.events_[0] == "begin" and recorder.events_[-1] == "end"
    assert [e for e, _ in epochs] == list(range(1, clf.n_iter_ + 1))
    np.testing.assert_allclose([loss for _, loss in epochs], clf.loss_curve_)
    assert clf.callbacks[0] is recorder
    # The fitted state holds no reference to the callback: without the
    # parameter, the fitted model pickles.
    restored = pickle.loads(pickle.dumps(clf.set_params(callbacks=None)))
    np.testing.assert_array_equal(restored.predict(_data()[0]), clf.predict(_data()[0]))


@pytest.mark.parametrize("make", ESTIMATORS, ids=IDS)
def test_callbacks_do_not_change_the_fit(make):
    X, y = _data()
    plain, tracked = make(None).fit(X, y), make([EpochRecorder()]).fit(X, y)
    assert plain.loss_curve_ == tracked.loss_curve_
    np.testing.assert_array_equal(plain.decision_function(X), tracked.decision_function(X))


def test_k_parity_auto_orientation_reports_each_training_run():
    # orientation="auto" trains the odd orientation, then the even one unless
    # the first fits exactly: the callback sees each run, epochs counted anew.
    recorder = EpochRecorder()
    clf = KParityTransformer(2, max_iter=3, random_state=0, callbacks=[recorder]).fit(*_data())
    # Three epochs do not fit the parity exactly: both orientations are trained.
    runs = recorder.events_.count("begin")
    assert runs == recorder.events_.count("end") == 2
    epochs = [e for e in recorder.events_ if isinstance(e, tuple)]
    assert len(epochs) == clf.n_iter_total_
    assert [e for e, _ in epochs] == [1, 2, 3] * runs


def test_skorch_checkpoint_writes_each_epoch(tmp_path):
    # A real skorch callback writing files, as TensorBoard or MLflow loggers do.
    checkpoint = Checkpoint(monitor=None, dirname=str(tmp_path), f_optimizer=None,
                            f_criterion=None)
    clf = FFNNParityBaseline(width=8, max_iter=3, random_state=0,
                             callbacks=[("checkpoint", checkpoint)]).fit(*_data())
    history = json.loads((tmp_path / "history.json").read_text())
    assert [row["epoch"] for row in history] == [1, 2, 3]
    assert [row["train_loss"] for row in history] == pytest.approx(clf.loss_curve_)
    assert (tmp_path / "params.pt").is_file()


def test_a_users_early_stopping_on_the_training_loss_stops_training():
    # skorch stops by KeyboardInterrupt; a user's EarlyStopping out of patience
    # is a deliberate stop, not a Ctrl-C.
    stop = EarlyStopping(monitor="train_loss", patience=1, threshold=10.0,
                         threshold_mode="abs", lower_is_better=True)
    clf = FFNNParityBaseline(width=8, max_iter=50, random_state=0,
                             callbacks=[stop]).fit(*_data())
    assert clf.n_iter_ == 2 and len(clf.loss_curve_) == 2


def test_clone_and_grid_search_copy_the_callbacks():
    recorder = EpochRecorder()
    clf = FFNNParityBaseline(width=8, max_iter=2, random_state=0, callbacks=[recorder])
    copy = clone(clf)
    assert isinstance(copy.callbacks[0], EpochRecorder) and copy.callbacks[0] is not recorder
    search = GridSearchCV(clf, {"width": [4, 8]}, cv=2).fit(*_data())
    assert recorder.events_ == []  # every fit had its own copy
    assert search.best_estimator_.callbacks[0].events_[-1] == "end"


@pytest.mark.parametrize("callbacks, error, message", [
    ([object()], TypeError, "callbacks must be a list of skorch callbacks"),
    ([("a", 3)], TypeError, r"got \('a', 3\)"),
    ([EpochRecorder(), EpochRecorder()], ValueError, r"\['EpochRecorder'\] are used twice"),
    ([("stop_on_non_finite", EpochRecorder())], ValueError, "estimator's own callbacks"),
    ((EpochRecorder(),), ValueError, "The 'callbacks' parameter of FFNNParityBaseline"),
])
def test_bad_callbacks_are_refused_before_training(callbacks, error, message):
    with pytest.raises(error, match=message):
        FFNNParityBaseline(max_iter=2, callbacks=callbacks).fit(*_data())


def test_tensorboard_writes_event_files(tmp_path):
    pytest.importorskip("tensorboard")
    from skorch.callbacks import TensorBoard
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(log_dir=str(tmp_path))
    FFNNParityBaseline(width=8, max_iter=2, random_state=0,
                       callbacks=[TensorBoard(writer)]).fit(*_data())
    writer.close()
    assert list(tmp_path.glob("events.out.tfevents.*"))
