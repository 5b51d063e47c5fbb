import { PlayCircle } from 'lucide-react';
import { useState } from 'react';

/**
 * The setup-guide video: loads only when asked, so the panel stays fast and nothing is fetched unasked. With no video
 * configured (SETUP_GUIDE_VIDEO_URL unset) there is no player at all.
 */
export function SetupVideo({ url }: { url: string | null }) {
  const [playing, setPlaying] = useState(false);
  if (!url) return null;
  return (
    <section aria-labelledby="setup-video-heading" className="space-y-2">
      <h3 id="setup-video-heading" className="text-sm font-semibold text-slate-900">
        Setup guide
      </h3>
      <div className="aspect-video overflow-hidden rounded-xl bg-slate-900">
        {playing ? (
          <iframe
            src={url}
            title="Setup guide video"
            className="size-full"
            allow="encrypted-media; picture-in-picture; fullscreen"
            referrerPolicy="strict-origin-when-cross-origin"
          />
        ) : (
          <button
            type="button"
            onClick={() => setPlaying(true)}
            className="flex size-full flex-col items-center justify-center gap-2 text-white hover:bg-slate-800"
          >
            <PlayCircle aria-hidden="true" className="size-12" />
            <span className="text-sm font-medium">Watch: connect your store in 5 minutes</span>
          </button>
        )}
      </div>
    </section>
  );
}
