#pragma once

#include <QPointer>

namespace Sandpiper {

class MathRenderer;
class RemoteImages;

// What a MarkdownView draws with but does not own, handed in by whoever makes the view: the
// renderer of TeX formulas and the window's remote images. Without a renderer, formulas show as
// their TeX; without remote images, an image from the web shows as a link to it.
struct MarkdownContext {
    QPointer<MathRenderer> math;
    QPointer<RemoteImages> remoteImages;
};

} // namespace Sandpiper
