/**
 * What an entry looks like at a glance: an icon by kind (folder, mount, image, video, audio, text
 * or code, archive, other) and, in the grid, an image's thumbnail loaded through its preview URL
 * only once the tile is on screen.
 */
import { useQuery } from '@tanstack/react-query';
import { extensionOf, type FsListItem } from '@cubby/shared';
import { useEffect, useRef, useState } from 'react';
import {
  ArchiveIcon,
  CodeFileIcon,
  FileIcon,
  FilmIcon,
  FolderIcon,
  ImageIcon,
  MusicIcon,
  ServerIcon,
} from '../../../components/icons.tsx';
import { previewKind } from '../../file-view/index.ts';
import { infoQueryOptions, type FsTree } from '../api/fs-api.ts';

const ARCHIVES = new Set(['zip', 'tar', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'zst']);

export type EntryKind = 'mount' | 'folder' | 'image' | 'video' | 'audio' | 'text' | 'archive' | 'file';

export function entryKind(item: FsListItem): EntryKind {
  if (item.isDirectory) return item.isVirtual && item.mount_id ? 'mount' : 'folder';
  if (ARCHIVES.has(extensionOf(item.name))) return 'archive';
  switch (previewKind(null, item.name)) {
    case 'image':
      return 'image';
    case 'video':
      return 'video';
    case 'audio':
      return 'audio';
    case 'text':
    case 'markdown':
    case 'html':
      return 'text';
    default:
      return 'file';
  }
}

const ICONS = {
  mount: ServerIcon,
  folder: FolderIcon,
  image: ImageIcon,
  video: FilmIcon,
  audio: MusicIcon,
  text: CodeFileIcon,
  archive: ArchiveIcon,
  file: FileIcon,
} as const;

const TONES: Record<EntryKind, string> = {
  mount: 'text-accent-text',
  folder: 'text-warning-text',
  image: 'text-success-text',
  video: 'text-danger-text',
  audio: 'text-accent-text',
  text: 'text-fg-muted',
  archive: 'text-warning-text',
  file: 'text-fg-muted',
};

export function EntryIcon({ item, className = 'size-5' }: { item: FsListItem; className?: string }) {
  const kind = entryKind(item);
  const Icon = ICONS[kind];
  return <Icon className={`${className} shrink-0 ${TONES[kind]}`} />;
}

/** True once the element has been within 200 px of the viewport. */
function useSeen<T extends Element>() {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || seen) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen]);
  return [ref, seen] as const;
}

/** A grid tile's picture: the image itself for images (lazily), the kind's icon otherwise. */
export function EntryThumbnail({ tree, item }: { tree: FsTree; item: FsListItem }) {
  const [ref, seen] = useSeen<HTMLDivElement>();
  const isImage = entryKind(item) === 'image';
  const info = useQuery({ ...infoQueryOptions(tree, item.path), enabled: isImage && seen });
  const [failed, setFailed] = useState(false);
  const src = info.data?.preview_url;
  return (
    <div ref={ref} className="flex size-full items-center justify-center overflow-hidden">
      {isImage && src && !failed ? (
        <img
          src={src}
          alt=""
          loading="lazy"
          decoding="async"
          onError={() => setFailed(true)}
          className="size-full object-cover"
          data-testid="entry-thumbnail"
        />
      ) : (
        <EntryIcon item={item} className="size-10" />
      )}
    </div>
  );
}
